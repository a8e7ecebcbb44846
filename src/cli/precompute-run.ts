/** @module The recording run of src/cli/precompute.ts: imports an entry with serve() collecting, writes the conversions tool() made. Usage: bun precompute-run.ts <entry> <out.json> */
import { writeFileSync } from "node:fs";

const [entry, out] = process.argv.slice(2);
if (!entry || !out) throw new Error("usage: precompute-run.ts <entry> <out.json>");
const store = new Map<string, unknown>();
const g = globalThis as Record<symbol, unknown>;
g[Symbol.for("mcpbin.schemas")] = store;
g[Symbol.for("mcpbin.schemas.record")] = true;
let collected = false;
g[Symbol.for("mcpbin.collect")] = () => void (collected = true);
await import(entry);
if (collected) writeFileSync(out, JSON.stringify(Object.fromEntries(store)));
process.exit(collected ? 0 : 1);
