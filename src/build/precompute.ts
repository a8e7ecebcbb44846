/** @module The build's check of a script (one run of it, src/build/check-run.ts) and the entry that embeds the JSON Schemas that run recorded, so the executable skips that work at start. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BuildError } from "./errors.ts";
import type { ServedCounts } from "./counts.ts";
import { embeddedFilesSource } from "../content/files.ts";
import { removeTempDir, tempDir, trackChild } from "./temp-dirs.ts";
import { validatorsSource } from "./validators.ts";

/** The build contract the generated entry fills (src/runtime/contract.ts). */
const CONTRACT = resolve(import.meta.dir, "../runtime/contract.ts");

/** Longest the check run may take, ms: a script must define its tools and call serve() when it loads. */
const CHECK_TIMEOUT_MS = 60_000;

/** What the check run of a server script found. */
export interface Inspection {
  readonly name: string;
  readonly version: string;
  /** How many tools it serves. */
  readonly tools: number;
  /** What it serves, counted for the build's summary. */
  readonly counts?: ServedCounts;
  /**
   * Key → JSON text of each valibot → JSON Schema conversion its tools made (src/tools/recorded.ts), and key →
   * absolute path of each file a resource declares (src/content/files.ts; keys starting `file\u0000`).
   */
  readonly schemas: Readonly<Record<string, string>>;
  /** App URI → the bundled HTML document of every app the server serves (src/apps/view.ts). */
  readonly views: Readonly<Record<string, string>>;
  /** Raw JSON Schema validators compiled at build time: key → Ajv standalone module source (src/build/validators.ts). */
  readonly validators?: Readonly<Record<string, string>>;
  /** Each tool's name and description, in the order served. */
  readonly toolList: readonly { readonly name: string; readonly description: string }[];
  /** Where it serves HTTP by default, when `serve({ http })` configures it (the token only as whether one is set). */
  readonly http?: ServedHttp;
  /**
   * The environment variables the `${VAR}` expansions of its `serve({ upstreams })` read (src/client/servers-file.ts
   * upstreamVars), taken from the options the run passed, so a computed entry counts as a literal one.
   */
  readonly upstreamEnv?: readonly string[];
  /** Each enabled upstream of its `serve({ upstreams })`: name → `command` as written (stdio ones only). */
  readonly upstreamCommands?: Readonly<Record<string, string>>;
}

/** The HTTP endpoint a server is configured for: its executable serves it unless started with `--stdio`. */
export interface ServedHttp {
  readonly host: string;
  /** Undefined when `--http` must give it (`http: true`), 0 for a free one. */
  readonly port?: number;
  readonly path: string;
  /** Whether a bearer token is configured (`http.token`); its value is never recorded. */
  readonly token: boolean;
}

/**
 * The HTTP endpoint of server options (`http: true` or an object), for the client configuration `mcpbin build` prints.
 * @param http - `options.http`.
 * @returns the endpoint, or undefined for a stdio-only server.
 */
export function servedHttp(http: unknown): ServedHttp | undefined {
  if (http === undefined || http === false || http === null) return undefined;
  const h = (typeof http === "object" ? http : {}) as {
    host?: unknown;
    port?: unknown;
    path?: unknown;
    token?: unknown;
  };
  return {
    host: typeof h.host === "string" ? h.host : "127.0.0.1",
    ...(typeof h.port === "number" ? { port: h.port } : {}),
    path: typeof h.path === "string" ? h.path : "/mcp",
    token: typeof h.token === "string" && h.token !== "",
  };
}

/**
 * Runs the script once in a child process (stdin closed, stdout and stderr discarded, no arguments):
 * serve() hands its options over instead of serving, the server's Registry is built, and every
 * conversion `tool()` makes is recorded (`MCPBIN_PRECOMPUTE_SCHEMAS=0`: none).
 * @param entry - absolute path of the script (or of a generated config entry).
 * @param bun - the Bun executable.
 * @returns what it found, or `{ notServer }` (the loader's message) when the script never calls serve()
 *   (not an mcpbin server).
 * @throws BuildError with one line: the script's load error, a bad tool or option, or a run that did not finish.
 */
export async function inspectScript(entry: string, bun: string): Promise<Inspection | { readonly notServer: string }> {
  const dir = tempDir("mcpbin-check-");
  try {
    const out = join(dir, "result.json");
    const p = Bun.spawn([bun, resolve(import.meta.dir, "check-run.ts")], {
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
      env: { ...process.env, MCPBIN_CHECK_ENTRY: entry, MCPBIN_CHECK_OUT: out },
    });
    trackChild(p);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      p.kill("SIGKILL");
    }, CHECK_TIMEOUT_MS);
    const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    clearTimeout(timer);
    if (timedOut)
      throw new BuildError(
        `checking ${entry} did not finish within ${CHECK_TIMEOUT_MS / 1000} s: a script must define its tools and call serve() when it loads`,
      );
    if (!existsSync(out)) {
      const last = err.trim().split("\n").pop() ?? "";
      throw new BuildError(`checking ${entry} failed (exit ${code})${last ? `: ${last}` : ""}`);
    }
    const r = JSON.parse(readFileSync(out, "utf8")) as Partial<Inspection> & {
      error?: string;
      notServer?: boolean;
      fatal?: boolean;
      warnings?: string[];
    };
    if (r.notServer) return { notServer: r.error ?? "" };
    for (const w of r.warnings ?? []) warnOnce(w);
    if (r.error !== undefined) throw r.fatal ? new ViewsError(r.error) : new BuildError(r.error);
    return r as Inspection;
  } finally {
    removeTempDir(dir);
  }
}

const printed = new Set<string>();

/** A check run's warning on stderr, once per process (a build may inspect a script twice). */
function warnOnce(w: string): void {
  if (printed.has(w)) return;
  printed.add(w);
  process.stderr.write(`mcpbin: warning: ${w}\n`);
}

/** An app or its view failed in the check run: unlike a schema, the build cannot go on without it. */
export class ViewsError extends BuildError {}

/**
 * The JSON Schemas {@link inspectScript} records for an entry, best effort: undefined when the run fails
 * or the entry is not a server (the executable then converts at start).
 */
export async function recordSchemas(entry: string, bun: string): Promise<Readonly<Record<string, string>> | undefined> {
  return (await recordBuildData(entry, bun)).schemas;
}

/**
 * What {@link inspectScript} records for an entry: the JSON Schemas best effort (as {@link recordSchemas}),
 * the bundled views of its apps not (an executable without them could not serve its apps).
 * @throws ViewsError when an app's definition or view bundle fails.
 */
export async function recordBuildData(
  entry: string,
  bun: string,
): Promise<{
  schemas?: Readonly<Record<string, string>>;
  views?: Readonly<Record<string, string>>;
  validators?: Readonly<Record<string, string>>;
}> {
  let r: Awaited<ReturnType<typeof inspectScript>> | undefined;
  try {
    r = await inspectScript(entry, bun);
  } catch (e) {
    if (e instanceof ViewsError) throw e;
  }
  return r && !("notServer" in r) ? { schemas: r.schemas, views: r.views, validators: r.validators } : {};
}

/** A generated entry that installs recorded JSON Schemas, then imports the real one. */
export interface PrecomputedEntry {
  /** The file to compile instead of the entry. */
  readonly entry: string;
  /** Removes the generated files. */
  cleanup(): void;
}

/**
 * Writes an entry that installs, in the build contract (src/runtime/contract.ts, which it imports), the
 * recorded JSON Schemas (`schemas`, key → JSON text as string constants: nothing to parse at start), the
 * embedded files (`files`) and the bundled views (`views`, app URI → HTML, src/apps/html.ts) before
 * importing the real entry; `tool()` then takes the recorded text instead of converting (src/tools/recorded.ts). With 200 tools this was
 * most of the start-up work (docs/benchmarks.md).
 * @param entry - absolute path of the entry.
 * @param schemas - from {@link inspectScript}.
 * @param views - from {@link inspectScript}.
 * @param validators - from {@link inspectScript}: raw JSON Schema validators compiled at build time (src/build/validators.ts).
 * @returns the generated entry, or undefined when there is nothing to embed.
 */
export function precomputedEntry(
  entry: string,
  schemas: Readonly<Record<string, string>>,
  views: Readonly<Record<string, string>> = {},
  validators: Readonly<Record<string, string>> = {},
): PrecomputedEntry | undefined {
  const pages = Object.entries(views);
  if (Object.keys(schemas).length === 0 && pages.length === 0 && Object.keys(validators).length === 0) return undefined;
  // Files resources declare are embedded as files (src/content/files.ts); the rest are schema texts.
  const { source: files, rest: entries } = embeddedFilesSource(Object.entries(schemas));
  const dir = tempDir("mcpbin-schemas-");
  writeFileSync(
    join(dir, "schemas.js"),
    `// Generated by mcpbin build: the JSON Schemas of the entry's tools, converted at build time, and the files its resources declare.\n` +
      `import { contract } from ${JSON.stringify(CONTRACT)};\n` +
      files +
      `contract().schemas = new Map(${JSON.stringify(entries)});\n` +
      (pages.length
        ? `// The bundled views of its apps.\ncontract().views = new Map(${JSON.stringify(pages)});\n`
        : "") +
      validatorsSource(dir, validators),
  );
  const wrapper = join(dir, "entry.ts");
  writeFileSync(wrapper, `import "./schemas.js";\nimport ${JSON.stringify(entry)};\n`);
  return { entry: wrapper, cleanup: () => removeTempDir(dir) };
}
