// Instruction counts (valgrind --tool=callgrind) of a server's start-up and of its tools/call path: robust to a noisy machine, unlike timings.
//
//   bun scripts/bench/icount.ts [--calls N] [--start-only] [--era legacy|modern] [--env K=V] -- <server command> [args...]
//
// Runs the server three times under callgrind with stdin from a file: initialize only; initialize and
// one tools/call; initialize and N pipelined tools/call add_numbers. Prints instructions (Ir) for start-up
// (spawn → exit after initialize), the first call, and per call ((Ir(N) − Ir(1)) / (N − 1)).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const dd = process.argv.indexOf("--");
if (dd < 0)
  throw new Error("usage: icount.ts [--calls N] [--era legacy|modern] [--env K=V] -- <server command> [args...]");
const { values } = parseArgs({
  args: process.argv.slice(2, dd),
  options: {
    calls: { type: "string", default: "2000" },
    "start-only": { type: "boolean", default: false },
    era: { type: "string", default: "legacy" },
    env: { type: "string", multiple: true },
  },
});
const cmd = process.argv.slice(dd + 1);
const calls = Number(values.calls);
const modern = values.era === "modern";
const env: Record<string, string> = { ...(process.env as Record<string, string>) };
for (const kv of values.env ?? []) env[kv.slice(0, kv.indexOf("="))] = kv.slice(kv.indexOf("=") + 1);

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const open = modern
  ? [{ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: META } }]
  : [
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "icount", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ];
const call = (i: number) => ({
  jsonrpc: "2.0",
  id: i + 1,
  method: "tools/call",
  params: { name: "add_numbers", arguments: { x: i, y: 2 * i }, ...(modern ? { _meta: META } : {}) },
});

const dir = mkdtempSync(join(tmpdir(), "icount-"));
function irOf(n: number): number {
  const input = join(dir, `in-${n}.jsonl`);
  writeFileSync(
    input,
    [...open, ...Array.from({ length: n }, (_, i) => call(i))].map((m) => JSON.stringify(m) + "\n").join(""),
  );
  const out = join(dir, `cg-${n}`);
  const r = spawnSync(
    "sh",
    ["-c", `exec valgrind --tool=callgrind --callgrind-out-file=${out} "$@" < ${input} > ${out}.stdout`, "sh", ...cmd],
    { env, encoding: "utf8" },
  );
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`valgrind failed: ${r.stderr.slice(-1000)}`);
  const lines = readFileSync(`${out}.stdout`, "utf8").trim().split("\n").filter(Boolean);
  const expected = n + 1;
  if (lines.length !== expected)
    throw new Error(`expected ${expected} responses, got ${lines.length}: ${lines.slice(0, 3).join(" | ")}`);
  return Number(m[1]);
}
try {
  const start = irOf(0);
  if (values["start-only"]) {
    console.log(JSON.stringify({ cmd: cmd.join(" "), era: values.era, startIr: start }));
    process.exit(0);
  }
  const one = irOf(1);
  const many = irOf(calls);
  const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(
    JSON.stringify({
      cmd: cmd.join(" "),
      era: values.era,
      startIr: start,
      firstCallIr: one - start,
      perCallIr: (many - one) / (calls - 1),
    }),
  );
  process.stderr.write(
    `start-up ${fmt(start)} Ir; first call +${fmt(one - start)} Ir; per call ${fmt((many - one) / (calls - 1))} Ir (over ${calls} pipelined calls)\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
