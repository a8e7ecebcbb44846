/**
 * @module The one run of a script `mcpbin build` makes before compiling it (src/cli/precompute.ts): collects
 * what it passes to serve(), builds the server's Registry (what the executable would refuse at every start
 * fails here), and records every valibot → JSON Schema conversion tool() makes. The entry and the result
 * file come in MCPBIN_CHECK_ENTRY and MCPBIN_CHECK_OUT, so the script sees no arguments of ours. Writes
 * `{name, version, tools, schemas}` or `{error, notServer}` as JSON, then exits 0.
 */
import { writeFileSync } from "node:fs";
import { LoaderError } from "../loader/collect.ts";
import { collectScript } from "../loader/script.ts";
import { Registry } from "../server/registry.ts";

const entry = process.env.MCPBIN_CHECK_ENTRY;
const out = process.env.MCPBIN_CHECK_OUT;
if (!entry || !out) throw new Error("check-run.ts: set MCPBIN_CHECK_ENTRY and MCPBIN_CHECK_OUT");
delete process.env.MCPBIN_CHECK_ENTRY;
delete process.env.MCPBIN_CHECK_OUT;

const store = new Map<string, unknown>();
if (process.env.MCPBIN_PRECOMPUTE_SCHEMAS !== "0") {
  const g = globalThis as Record<symbol, unknown>;
  g[Symbol.for("mcpbin.schemas")] = store;
  g[Symbol.for("mcpbin.schemas.record")] = true;
}
let result: Record<string, unknown>;
try {
  const registry = new Registry(await collectScript(entry));
  result = { name: registry.options.name, version: registry.options.version, tools: registry.tools.size, schemas: Object.fromEntries(store) };
} catch (e) {
  const message = String((e as Error)?.message ?? e).split("\n")[0]!;
  result = { error: message, notServer: e instanceof LoaderError && message.includes("did not call serve() while loading") };
}
writeFileSync(out, JSON.stringify(result));
process.exit(0);
