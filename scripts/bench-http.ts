// Bounded HTTP load test on loopback with wrk: mcpbin's Streamable HTTP transport (both eras) beside a raw
// Bun.serve JSON echo (the limit on Bun) and the official SDK's HTTP servers, same run, same workload
// (tools/call add_numbers, JSON responses); writes the table and docs/benchmarks-http.svg.
//   node_modules/.bin/bun scripts/bench-http.ts [--seconds 8] [--connections 16] [--rounds 2] [--write]
// Needs: wrk (apt-get install wrk), the peers in /tmp/peers (scripts/bench/setup-peers.sh), Node for SDK v1.
// --write replaces the generated block of the HTTP section in docs/benchmarks.md and draws docs/benchmarks-http.svg.
import { spawn, spawnSync, type Subprocess } from "bun";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { drawHttpChart, type HttpBar } from "./bench/http-chart.ts";

const ROOT = resolve(import.meta.dir, "..");
const PEERS = process.env.PEERS ?? "/tmp/peers";
const { values: opt } = parseArgs({
  options: {
    seconds: { type: "string", default: "8" },
    connections: { type: "string", default: "16" },
    rounds: { type: "string", default: "2" },
    write: { type: "boolean", default: false },
  },
});
const SECONDS = Number(opt.seconds);
const CONNECTIONS = Number(opt.connections);
const ROUNDS = Number(opt.rounds);
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const CALL = (modern: boolean) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "add_numbers", arguments: { x: 2, y: 3 }, ...(modern ? { _meta: META } : {}) },
  });
const BASE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const MODERN_HEADERS = {
  ...BASE_HEADERS,
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "add_numbers",
};

interface Target {
  name: string;
  what: string;
  cmd: (port: number) => string[];
  cwd?: string;
  modern: boolean;
  /** Legacy with a session: initialize once, then every request carries Mcp-Session-Id. */
  session?: boolean;
  legacyVersion?: string;
}

function sh(cmd: string[], cwd = ROOT): string {
  const r = spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

// The mcpbin benchmark server (examples/bench/server.ts: add_numbers and echo), compiled.
const bin = resolve(ROOT, ".test-build/bench-http-mcpbin");
sh([process.execPath, "bin/mcpbin.ts", "build", "examples/bench/server.ts", "--outfile", bin]);
for (const f of ["sdk-v1-http.mjs", "sdk-v2-http.mjs"])
  copyFileSync(resolve(ROOT, "scripts/bench-http", f), resolve(PEERS, "servers", f));
const node = sh(["which", "node"]).trim();
const peerBun = resolve(PEERS, "node_modules/.bin/bun");

const TARGETS: Target[] = [
  {
    name: "raw Bun.serve JSON echo",
    what: "parses the body, answers x+y as a JSON-RPC result; no MCP (the limit on Bun)",
    cmd: (p) => [process.execPath, "scripts/bench-http/raw-echo.ts", String(p)],
    modern: true,
  },
  {
    name: "mcpbin (2026-07-28)",
    what: "compiled binary, --http, stateless",
    cmd: (p) => [bin, "--http", `127.0.0.1:${p}`],
    modern: true,
  },
  {
    name: "mcpbin (2025-11-25 session)",
    what: "compiled binary, --http, one Mcp-Session-Id",
    cmd: (p) => [bin, "--http", `127.0.0.1:${p}`],
    modern: false,
    session: true,
    legacyVersion: "2025-11-25",
  },
  {
    name: "SDK v2 createMcpHandler (2026-07-28)",
    what: "@modelcontextprotocol/server 2.4.0 on Bun.serve",
    cmd: (p) => [peerBun, "sdk-v2-http.mjs", String(p)],
    cwd: `${PEERS}/servers`,
    modern: true,
  },
  {
    name: "SDK v1 stateless (2025-11-25)",
    what: "@modelcontextprotocol/sdk 1.32.2 on node:http (Node " + sh([node, "--version"]).trim() + ")",
    cmd: (p) => [node, "sdk-v1-http.mjs", String(p)],
    cwd: `${PEERS}/servers`,
    modern: false,
    legacyVersion: "2025-11-25",
  },
];

async function start(t: Target, port: number): Promise<{ proc: Subprocess; headers: Record<string, string> }> {
  // The server runs on CPU 0, wrk on CPU 1: one core each, so runtimes with helper threads are compared fairly.
  const proc = spawn(["taskset", "-c", "0", ...t.cmd(port)], {
    cwd: t.cwd ?? ROOT,
    stdout: "ignore",
    stderr: "ignore",
    stdin: "ignore",
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  let headers: Record<string, string> = t.modern
    ? { ...MODERN_HEADERS }
    : { ...BASE_HEADERS, "mcp-protocol-version": t.legacyVersion! };
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url, { method: "POST", headers: BASE_HEADERS, body: "{}" });
      break;
    } catch {
      await Bun.sleep(100);
    }
  }
  if (t.session) {
    const init = await fetch(url, {
      method: "POST",
      headers: BASE_HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: t.legacyVersion, capabilities: {}, clientInfo: { name: "wrk", version: "1" } },
      }),
    });
    headers = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id")! };
    await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
  }
  // Correctness before load: the answer is 5.
  const r = await fetch(url, { method: "POST", headers, body: CALL(t.modern) });
  const text = await r.text();
  const json = JSON.parse(text.startsWith("event:") ? text.slice(text.indexOf("data:") + 5) : text);
  if (json.result?.content?.[0]?.text !== "5") throw new Error(`${t.name}: unexpected answer ${text}`);
  return { proc, headers };
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  kinds: Record<string, number>;
}

function ms(s: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(s)!;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
}

function wrk(url: string, headers: Record<string, string>, body: string): Run {
  const lua = `/tmp/mcpbin-bench-http-${process.pid}.lua`;
  writeFileSync(
    lua,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\n${Object.entries(headers)
      .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
      .join("\n")}\n`,
  );
  const out = sh([
    "taskset",
    "-c",
    "1",
    "wrk",
    "-t1",
    `-c${CONNECTIONS}`,
    `-d${SECONDS}s`,
    "--latency",
    "-s",
    lua,
    url,
  ]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]);
  const p50 = ms(/\s50%\s+(\S+)/.exec(out)![1]!);
  const p99 = ms(/\s99%\s+(\S+)/.exec(out)![1]!);
  const requests = Number(/(\d+) requests in/.exec(out)![1]);
  const kinds: Record<string, number> = {};
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  if (non2xx) kinds["non-2xx"] = non2xx;
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  if (sock)
    ["connect", "read", "write", "timeout"].forEach((k, i) => Number(sock[i + 1]) && (kinds[k] = Number(sock[i + 1])));
  const errors = Object.values(kinds).reduce((a, b) => a + b, 0);
  return { rps, p50, p99, requests, errors, kinds };
}

const loadBefore = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
const results = new Map<string, Run[]>();
let port = 3460;
for (let round = 1; round <= ROUNDS; round++) {
  for (const t of TARGETS) {
    const p = port++;
    const { proc, headers } = await start(t, p);
    const url = `http://127.0.0.1:${p}/mcp`;
    wrk(url, headers, CALL(t.modern)); // warm-up, same length, not counted
    const run = wrk(url, headers, CALL(t.modern));
    proc.kill("SIGKILL");
    await proc.exited;
    (results.get(t.name) ?? results.set(t.name, []).get(t.name)!).push(run);
    process.stderr.write(
      `round ${round} ${t.name}: ${run.rps.toFixed(0)} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, ${run.requests} requests, ${run.errors} errors\n`,
    );
  }
}

function errorCell(rs: Run[]): string {
  const sum: Record<string, number> = {};
  for (const r of rs) for (const [k, v] of Object.entries(r.kinds)) sum[k] = (sum[k] ?? 0) + v;
  const total = Object.values(sum).reduce((a, b) => a + b, 0);
  return total === 0
    ? "0"
    : `${total} (${Object.entries(sum)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")})`;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const base = median(results.get(TARGETS[0]!.name)!.map((r) => r.rps));
const mcpbinModern = median(results.get("mcpbin (2026-07-28)")!.map((r) => r.rps));
const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "?";
const lines = [
  `Run ${new Date().toISOString().slice(0, 16)}Z on ${cpu}, ${ROUNDS} rounds (median shown; the lower of the rounds for throughput in brackets), ` +
    `load average ${loadBefore} before and ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]} after the run (other jobs shared the 2 cores, so absolute numbers are low; compare ratios), ` +
    `wrk 4.1.0 \`-t1 -c${CONNECTIONS} -d${SECONDS}s\` after an equal warm-up, server pinned to CPU 0 and wrk to CPU 1 (taskset), 127.0.0.1 only. ` +
    `Every request: \`tools/call add_numbers {x:2,y:3}\`, answered with application/json; each server's answer was checked before its run, and wrk counted every non-2xx response and socket error (kinds in brackets; a timeout is a response slower than wrk's 2 s).`,
  "",
  `Target: mcpbin's requests/s ≥ 0.5× the raw echo's. Measured: ${(mcpbinModern / base).toFixed(2)}× (2026-07-28), ${(median(results.get("mcpbin (2025-11-25 session)")!.map((r) => r.rps)) / base).toFixed(2)}× (2025-11-25 session): ${mcpbinModern / base >= 0.5 ? "met" : "**not met**"}.`,
  "",
  "| server | what | requests/s | p50 ms | p99 ms | requests | errors | vs raw echo |",
  "|---|---|---|---|---|---|---|---|",
  ...TARGETS.map((t) => {
    const rs = results.get(t.name)!;
    const rps = median(rs.map((r) => r.rps));
    return `| ${t.name} | ${t.what} | ${rps.toFixed(0)} (${Math.min(...rs.map((r) => r.rps)).toFixed(0)}) | ${median(rs.map((r) => r.p50)).toFixed(2)} | ${median(rs.map((r) => r.p99)).toFixed(2)} | ${rs.reduce((a, r) => a + r.requests, 0)} | ${errorCell(rs)} | ${(rps / base).toFixed(2)}× |`;
  }),
];
const table = lines.join("\n") + "\n\n![requests/s and p99 over --http](benchmarks-http.svg)";

/** One bar per server for the chart: its median requests/s and p99 over the rounds. */
const bars = (): HttpBar[] =>
  TARGETS.map((t) => {
    const rs = results.get(t.name)!;
    return {
      name: t.name,
      own: t.name.startsWith("mcpbin"),
      rps: median(rs.map((r) => r.rps)),
      p99: median(rs.map((r) => r.p99)),
    };
  });
console.log(table);
if (opt.write) {
  const file = resolve(ROOT, "docs/benchmarks.md");
  const doc = readFileSync(file, "utf8");
  const begin = "<!-- http-bench:begin (generated by scripts/bench-http.ts --write) -->";
  const end = "<!-- http-bench:end -->";
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i === -1 || j === -1) throw new Error(`docs/benchmarks.md has no ${begin} … ${end} block in its HTTP section`);
  writeFileSync(file, doc.slice(0, i + begin.length) + "\n" + table + "\n" + doc.slice(j));
  writeFileSync(
    resolve(ROOT, "docs/benchmarks-http.svg"),
    drawHttpChart(
      bars(),
      base,
      `${new Date().toISOString().slice(0, 16)}Z · ${cpu} · wrk -t1 -c${CONNECTIONS} -d${SECONDS}s · ${ROUNDS} rounds, median · load average ${loadBefore} at start`,
    ),
  );
}
