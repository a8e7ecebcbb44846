// The latency a proxy adds per tools/call: the same upstream (the compiled mcpbin benchmark server,
// examples/bench/server.ts) called directly and through a proxy, one call at a time, p50 of each; mcpbin proxy
// (stdio → stdio and stdio → Streamable HTTP) beside the peer `mcp-proxy` (punkpeye, stdio → Streamable HTTP),
// same run, rounds interleaved. Every process of the server side (proxy and upstream) runs on CPU 0, the
// client (this script) on CPU 1. Every answer is checked (content[0].text is x+y).
//   node_modules/.bin/bun scripts/bench-proxy.ts [--calls 2000] [--warmup 300] [--rounds 3] [--write]
// Needs: the peers in /tmp/peers (scripts/bench/setup-peers.sh installs mcp-proxy there), Node for mcp-proxy.
// --write replaces the generated block of the proxy section in docs/benchmarks.md and docs/bench-proxy.svg.
import { spawn, spawnSync, type Subprocess } from "bun";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const ROOT = resolve(import.meta.dir, "..");
const PEERS = process.env.PEERS ?? "/tmp/peers";
const { values: opt } = parseArgs({
  options: {
    calls: { type: "string", default: "2000" },
    warmup: { type: "string", default: "300" },
    rounds: { type: "string", default: "3" },
    write: { type: "boolean", default: false },
  },
});
const CALLS = Number(opt.calls);
const WARMUP = Number(opt.warmup);
const ROUNDS = Number(opt.rounds);
const VERSION = "2025-06-18";

function sh(cmd: string[], cwd = ROOT): string {
  const r = spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

// The client on CPU 1; what it starts is pinned to CPU 0 (children inherit it: a proxy's upstream too).
sh(["taskset", "-p", "-c", "1", String(process.pid)]);
const work = mkdtempSync(join(tmpdir(), "mcpbin-bench-proxy-"));
const upstream = join(work, "upstream");
sh([process.execPath, "bin/mcpbin.ts", "build", "examples/bench/server.ts", "--outfile", upstream]);
const servers = join(work, "servers.json");
writeFileSync(servers, JSON.stringify({ mcpServers: { bench: { command: upstream } } }));
const node = sh(["which", "node"]).trim();
const mcpProxy = resolve(PEERS, "node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs");
const mcpProxyVersion = JSON.parse(readFileSync(resolve(PEERS, "node_modules/mcp-proxy/package.json"), "utf8"))
  .version as string;
const bun = process.execPath;

/** One way of reaching the upstream. */
interface Target {
  name: string;
  what: string;
  transport: "stdio" | "http";
  cmd: (port: number) => string[];
  /** The row whose p50 this one's added latency is measured against. */
  direct?: string;
}
const TARGETS: Target[] = [
  { name: "direct (stdio)", what: "the upstream executable itself", transport: "stdio", cmd: () => [upstream] },
  {
    name: "mcpbin proxy (stdio → stdio)",
    what: "mcpbin proxy --servers, from source on Bun",
    transport: "stdio",
    cmd: () => [bun, "bin/mcpbin.ts", "proxy", "--servers", servers],
    direct: "direct (stdio)",
  },
  {
    name: "direct (HTTP)",
    what: "the upstream executable itself, --http (session)",
    transport: "http",
    cmd: (p) => [upstream, "--http", `127.0.0.1:${p}`],
  },
  {
    name: "mcpbin proxy --http (stdio → HTTP)",
    what: "mcpbin proxy --servers --http, from source on Bun",
    transport: "http",
    cmd: (p) => [bun, "bin/mcpbin.ts", "proxy", "--servers", servers, "--http", `127.0.0.1:${p}`],
    direct: "direct (HTTP)",
  },
  {
    name: `mcp-proxy ${mcpProxyVersion} (stdio → HTTP)`,
    what: `punkpeye's mcp-proxy on Node ${sh([node, "--version"]).trim()}`,
    transport: "http",
    cmd: (p) => [node, mcpProxy, "--host", "127.0.0.1", "--port", String(p), "--server", "stream", "--", upstream],
    direct: "direct (HTTP)",
  },
];

type Msg = { id?: number; result?: { content?: { text?: string }[] }; error?: unknown };
/** Sends one request and resolves with its response. */
type Caller = {
  call(id: number, method: string, params?: unknown): Promise<Msg>;
  notify(method: string): Promise<void>;
  close(): Promise<void>;
};

function stdioCaller(cmd: string[]): Caller {
  const proc = spawn(["taskset", "-c", "0", ...cmd], { cwd: ROOT, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const waiting = new Map<number, (m: Msg) => void>();
  void (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of proc.stdout) {
      buf += dec.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const m = JSON.parse(buf.slice(0, nl)) as Msg;
        buf = buf.slice(nl + 1);
        if (m.id !== undefined) waiting.get(m.id)?.(m);
      }
    }
  })();
  return {
    call(id, method, params) {
      return new Promise((res) => {
        waiting.set(id, (m) => (waiting.delete(id), res(m)));
        proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
        void proc.stdin.flush();
      });
    },
    async notify(method) {
      proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n");
      await proc.stdin.flush();
    },
    async close() {
      await proc.stdin.end();
      await proc.exited;
    },
  };
}

async function httpCaller(cmd: string[], port: number): Promise<Caller> {
  const proc: Subprocess = spawn(["taskset", "-c", "0", ...cmd], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  // Waits for the port (a readiness check, not a timing).
  for (let i = 0; ; i++) {
    try {
      await fetch(url, { method: "GET", headers });
      break;
    } catch {
      if (i > 200) throw new Error(`${cmd.join(" ")}: no HTTP server on ${port}`);
      await Bun.sleep(50);
    }
  }
  const post = async (body: unknown): Promise<Response> =>
    fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const parse = async (r: Response): Promise<Msg> => {
    const text = await r.text();
    if (!(r.headers.get("content-type") ?? "").includes("event-stream")) return JSON.parse(text) as Msg;
    const data = text
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => JSON.parse(l.slice(5)) as Msg);
    return data.find((m) => m.id !== undefined)!;
  };
  return {
    async call(id, method, params) {
      const r = await post({ jsonrpc: "2.0", id, method, params });
      const sid = r.headers.get("mcp-session-id");
      if (sid) headers["mcp-session-id"] = sid;
      if (method === "initialize") headers["mcp-protocol-version"] = VERSION;
      return parse(r);
    },
    async notify(method) {
      await (await post({ jsonrpc: "2.0", method })).text();
    },
    async close() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** p50 of CALLS sequential tools/call after WARMUP, in µs; every answer checked. */
async function measure(t: Target, port: number): Promise<number> {
  const c = t.transport === "stdio" ? stdioCaller(t.cmd(port)) : await httpCaller(t.cmd(port), port);
  try {
    const init = await c.call(0, "initialize", {
      protocolVersion: VERSION,
      capabilities: {},
      clientInfo: { name: "bench-proxy", version: "1" },
    });
    if (init.error) throw new Error(`${t.name}: initialize failed: ${JSON.stringify(init.error)}`);
    await c.notify("notifications/initialized");
    const list = await c.call(1, "tools/list", {});
    const names = ((list.result as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((x) => x.name);
    if (!names.includes("add_numbers")) throw new Error(`${t.name}: no add_numbers in ${JSON.stringify(list)}`);
    const times: number[] = [];
    for (let i = 0; i < WARMUP + CALLS; i++) {
      const x = i % 1000;
      const t0 = performance.now();
      const r = await c.call(i + 2, "tools/call", { name: "add_numbers", arguments: { x, y: 2 } });
      const dt = performance.now() - t0;
      if (r.result?.content?.[0]?.text !== String(x + 2))
        throw new Error(`${t.name}: call ${i}: unexpected ${JSON.stringify(r)}`);
      if (i >= WARMUP) times.push(dt * 1000);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  } finally {
    await c.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loadBefore = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
const p50s = new Map<string, number[]>(TARGETS.map((t) => [t.name, []]));
let port = 3560;
for (let round = 1; round <= ROUNDS; round++) {
  for (const t of TARGETS) {
    const p = await measure(t, port++);
    p50s.get(t.name)!.push(p);
    process.stderr.write(`round ${round} ${t.name}: p50 ${p.toFixed(0)} µs\n`);
  }
}
const loadAfter = readFileSync("/proc/loadavg", "utf8").split(" ")[0];

interface Row {
  name: string;
  what: string;
  p50: number;
  added?: number;
}
const rows: Row[] = TARGETS.map((t) => ({ name: t.name, what: t.what, p50: median(p50s.get(t.name)!) }));
for (const [i, t] of TARGETS.entries())
  if (t.direct) rows[i]!.added = rows[i]!.p50 - rows.find((r) => r.name === t.direct)!.p50;

const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "unknown CPU";
const when = new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC";
const header = `${when}; ${cpu}; Bun ${Bun.version}; ${CALLS} sequential calls (after ${WARMUP}) × ${ROUNDS} rounds, median of the rounds' p50; load ${loadBefore} → ${loadAfter}`;
const us = (x: number) => `${Math.round(x)} µs`;
const table = [
  "| path | what | p50 per tools/call | added by the proxy |",
  "|---|---|---:|---:|",
  ...rows.map(
    (r) => `| ${r.name} | ${r.what} | ${us(r.p50)} | ${r.added === undefined ? "(baseline)" : `**${us(r.added)}**`} |`,
  ),
].join("\n");
const svg = drawProxyChart(rows, header);
process.stdout.write(`${header}\n\n${table}\n`);
if (opt.write) {
  writeFileSync(resolve(ROOT, "docs/bench-proxy.svg"), svg);
  const doc = resolve(ROOT, "docs/benchmarks.md");
  const text = readFileSync(doc, "utf8");
  const start = "<!-- bench-proxy:start -->";
  const end = "<!-- bench-proxy:end -->";
  const block = `${start}\nMeasured ${header}.\n\n${table}\n\n![The latency a proxy adds per tools/call](bench-proxy.svg)\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < 0) throw new Error(`docs/benchmarks.md has no ${start} … ${end} block`);
  writeFileSync(doc, text.slice(0, i) + block + text.slice(j + end.length));
}

/** One bar per path: its p50, the part the proxy adds drawn darker. Self-contained SVG. */
function drawProxyChart(rs: Row[], title: string): string {
  const labelW = 300;
  const plotW = 480;
  const valueW = 170;
  const barH = 16;
  const gap = 6;
  const max = Math.max(...rs.map((r) => r.p50)) * 1.05;
  const x = (v: number) => (v / max) * plotW;
  const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const parts: string[] = [];
  let y = 44;
  for (const r of rs) {
    const base = r.added === undefined ? r.p50 : r.p50 - r.added;
    const color = r.name.startsWith("mcpbin") ? "#d9480f" : r.name.startsWith("direct") ? "#495057" : "#74c0fc";
    parts.push(`<text x="${labelW - 8}" y="${y + 12}" class="l">${esc(r.name)}</text>`);
    parts.push(
      `<rect x="${labelW}" y="${y}" width="${x(Math.max(0, base)).toFixed(1)}" height="${barH}" fill="#adb5bd"/>`,
    );
    if (r.added !== undefined)
      parts.push(
        `<rect x="${(labelW + x(Math.max(0, base))).toFixed(1)}" y="${y}" width="${x(Math.max(0, r.added)).toFixed(1)}" height="${barH}" fill="${color}"/>`,
      );
    parts.push(
      `<text x="${labelW + plotW + 8}" y="${y + 12}" class="v">${us(r.p50)}${r.added === undefined ? "" : ` (+${us(r.added)})`}</text>`,
    );
    y += barH + gap;
  }
  const h = y + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + plotW + valueW}" height="${h}" font-family="sans-serif" font-size="12">
<style>.l{text-anchor:end}.v{fill:#212529}.t{font-weight:bold}.s{fill:#495057;font-size:10px}</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="8" y="16" class="t">p50 per tools/call, direct and through a proxy (grey: direct, same client transport; colour: added)</text>
<text x="8" y="32" class="s">${esc(title)}</text>
${parts.join("\n")}
</svg>
`;
}
