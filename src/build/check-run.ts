/**
 * @module The one run of a script `mcpbin build` makes before compiling it (src/build/precompute.ts): collects
 * what it passes to serve(), builds the server's Registry (what the executable would refuse at every start
 * fails here), and records every valibot → JSON Schema conversion tool() makes and every file a resource declares. The entry and the result
 * file come in MCPBIN_CHECK_ENTRY and MCPBIN_CHECK_OUT, so the script sees no arguments of ours. Writes
 * `{name, version, tools, schemas, views, upstreamEnv, upstreamCommands}` (the variables the `${VAR}`s of its
 * `serve({ upstreams })` read, as written: they are expanded at start, never here; and each upstream's
 * `command`) or `{error, notServer, fatal}` as JSON, then exits 0. The same run
 * bundles the view of every app the server serves (`views`: URI → HTML, src/apps/view.ts); an app or view
 * error is `fatal` (a build must not go on without the view).
 */
import "../serve/capabilities.ts";
import { writeFileSync } from "node:fs";
import { displayPath } from "../config/load.ts";
import { LoaderError } from "../loader/collect.ts";
import { collectScript } from "../loader/script.ts";
import { Registry } from "../server/registry.ts";
import { appsOfServer } from "../apps/tool-ui.ts";
import { buildAppHtml } from "../apps/view.ts";
import { servedHttp } from "./precompute.ts";
import { contract } from "../runtime/contract.ts";
import { compileValidators } from "./validators.ts";
import { countsOf } from "./counts.ts";
import { upstreamVars } from "../client/servers-file.ts";

const entry = process.env.MCPBIN_CHECK_ENTRY;
const out = process.env.MCPBIN_CHECK_OUT;
if (!entry || !out) throw new Error("check-run.ts: set MCPBIN_CHECK_ENTRY and MCPBIN_CHECK_OUT");
delete process.env.MCPBIN_CHECK_ENTRY;
delete process.env.MCPBIN_CHECK_OUT;

const store = new Map<string, unknown>();
const c = contract();
c.schemas = store;
// The files resources declare are always recorded (the executable needs them); schemas unless turned off.
c.recordFiles = true;
c.schemaWarnings = [];
if (process.env.MCPBIN_PRECOMPUTE_SCHEMAS !== "0") c.recordSchemas = true;
let result: Record<string, unknown>;
let stage = "load";
try {
  const options = await collectScript(entry);
  const registry = new Registry(options);
  const c = registry.content;
  if (
    registry.tools.size + c.resources.size + c.templates.length + c.prompts.size === 0 &&
    options.upstreams === undefined &&
    options.sessions === undefined
  ) {
    throw new Error(
      `${displayPath(entry)}: serve() was given no tool, resource or prompt, so the server would serve nothing`,
    );
  }
  stage = "apps";
  const views: Record<string, string> = {};
  for (const [uri, a] of appsOfServer(options)) views[uri] = await buildAppHtml(a);
  // Raw JSON Schemas compiled to standalone validators, best effort: one Ajv cannot compile is compiled at run time.
  let validators: Record<string, string> = {};
  try {
    validators = await compileValidators(registry);
  } catch {}
  result = {
    validators,
    name: registry.options.name,
    version: registry.options.version,
    tools: registry.tools.size,
    counts: countsOf(options),
    schemas: Object.fromEntries(store),
    views,
    toolList: [...registry.tools.values()].map((t) => ({ name: t.name, description: t.definition.description })),
    warnings: contract().schemaWarnings,
    http: servedHttp(options.http),
    upstreamEnv: upstreamVars((options.upstreams ?? {}) as Record<string, unknown>),
    upstreamCommands: commandsOf(options.upstreams),
  };
} catch (e) {
  const message = String((e as Error)?.message ?? e).split("\n")[0]!;
  const name = (e as Error)?.name;
  result = {
    error: message,
    notServer: e instanceof LoaderError && message.includes("did not call serve() while loading"),
    fatal: stage === "apps" || name === "AppDefinitionError" || name === "ViewBuildError",
  };
}
writeFileSync(out, JSON.stringify(result));
process.exit(0);

/** Each enabled upstream's `command` as written (the build refuses a relative one: src/cli/project-build.ts). */
function commandsOf(upstreams: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, u] of Object.entries(
    (upstreams ?? {}) as Record<string, { command?: unknown; disabled?: unknown }>,
  )) {
    if (typeof u?.command === "string" && u.disabled !== true) out[name] = u.command;
  }
  return out;
}
