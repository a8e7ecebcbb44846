// Where a stdio server's resident memory is, by kind of mapping: after initialize, after one-at-a-time calls, after a pipelined burst.
//
//   bun scripts/bench/memory-map.ts [--era legacy|modern] [--seq N] [--pipe N] [--env K=V] -- <server command> [args...]
//
// The session of scripts/bench/harness.ts (initialize, N sequential then N pipelined tools/call add_numbers
// in one write). At each point it sums the Rss of /proc/PID/smaps by kind: the executable's machine code
// (r-xp), its writable part (rw-p: `.data` and, in a compiled executable, the embedded module graph
// `.bun`), its read-only data (r--p), anonymous memory, and shared libraries; then VmHWM. Clean
// file-backed pages count in VmRSS like the rest, though they are shared with every process that maps them.
// docs/benchmarks.md ("Session 5: memory") reads its tables this way. Linux only.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

// Bun drops a `--` that comes first, so with no options the command starts at argv[2].
const dd = process.argv.indexOf("--");
const cmd = process.argv.slice(dd < 0 ? 2 : dd + 1);
if (cmd.length === 0 || cmd[0]!.startsWith("-"))
  throw new Error(
    "usage: memory-map.ts [--era legacy|modern] [--seq N] [--pipe N] [--env K=V] -- <server command> [args...]",
  );
const { values } = parseArgs({
  args: dd < 0 ? [] : process.argv.slice(2, dd),
  options: {
    era: { type: "string", default: "legacy" },
    seq: { type: "string", default: "3000" },
    pipe: { type: "string", default: "20000" },
    env: { type: "string", multiple: true },
  },
});
const modern = values.era === "modern";
const env = {
  ...process.env,
  ...Object.fromEntries((values.env ?? []).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)])),
};

const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ["pipe", "pipe", "inherit"], env });
const pid = child.pid!;
const waiting = new Map<unknown, (m: { id?: unknown; error?: unknown }) => void>();
let onOther: (() => void) | undefined;
let buf = "";
child.stdout!.setEncoding("utf8");
child.stdout!.on("data", (chunk: string) => {
  buf += chunk;
  let from = 0;
  for (let nl = buf.indexOf("\n"); nl !== -1; from = nl + 1, nl = buf.indexOf("\n", from)) {
    const m = JSON.parse(buf.slice(from, nl)) as { id?: unknown; error?: unknown };
    if (m.error) throw new Error(`server answered an error: ${JSON.stringify(m.error)}`);
    const w = waiting.get(m.id);
    if (w) {
      waiting.delete(m.id);
      w(m);
    } else onOther?.();
  }
  buf = buf.slice(from);
});
const send = (m: object) => child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
const request = (id: unknown, method: string, params: object) =>
  new Promise((resolve) => (waiting.set(id, resolve), send({ id, method, params })));
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "memory-map", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const callParams = (x: number, y: number) =>
  modern ? { name: "add_numbers", arguments: { x, y }, _meta: META } : { name: "add_numbers", arguments: { x, y } };

/** Rss (KiB) by kind of mapping. */
function byKind(): Record<string, number> {
  const exe = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!;
  const kinds: Record<string, number> = {};
  let kind = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, perms, path] = head as unknown as [string, string, string];
      kind =
        path === "" || path.startsWith("[")
          ? perms.includes("x")
            ? "anonymous, executable (JIT code)"
            : "anonymous"
          : path.endsWith(exe.split("/").pop()!)
            ? `executable ${perms}`
            : "shared libraries";
      continue;
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss) kinds[kind] = (kinds[kind] ?? 0) + Number(rss[1]);
  }
  return kinds;
}
const status = (key: string) =>
  Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);

const points: [string, Record<string, number>, number][] = [];
const mark = (label: string) => points.push([label, byKind(), status("VmRSS")]);

if (modern) await request("d", "server/discover", { _meta: META });
else {
  await request("i", "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "memory-map", version: "1" },
  });
  send({ method: "notifications/initialized" });
}
mark("after initialize");
const seq = Number(values.seq);
for (let i = 0; i < seq; i++) await request(i + 1, "tools/call", callParams(i, 1));
mark(`after ${seq} single calls`);
const pipe = Number(values.pipe);
let got = 0;
const burst =
  Array.from({ length: pipe }, (_, i) =>
    JSON.stringify({ jsonrpc: "2.0", id: 1e6 + i, method: "tools/call", params: callParams(i, 2 * i) }),
  ).join("\n") + "\n";
await new Promise<void>((resolve) => {
  onOther = () => ++got === pipe && resolve();
  child.stdin!.write(burst);
});
mark(`after ${pipe} pipelined`);
const hwm = status("VmHWM");
child.stdin!.end();

const mib = (kb: number) => (kb / 1024).toFixed(1);
const kinds = [...new Set(points.flatMap(([, k]) => Object.keys(k)))].sort();
console.log(`| Rss, MiB | ${points.map(([l]) => l).join(" | ")} |`);
console.log(`|---|${points.map(() => "---:").join("|")}|`);
for (const k of kinds) console.log(`| ${k} | ${points.map(([, p]) => mib(p[k] ?? 0)).join(" | ")} |`);
console.log(`| VmRSS | ${points.map(([, , r]) => mib(r)).join(" | ")} |`);
console.log(`\nVmHWM ${mib(hwm)} MiB (${cmd.join(" ")}, ${modern ? "2026-07-28" : "legacy"})`);
await new Promise((r) => child.on("exit", r));
