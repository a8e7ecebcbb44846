// Soak: drives 1,000,000 tools/call requests through the compiled fixture over real pipes and reports its RSS over time.
// Usage: node_modules/.bin/bun scripts/soak.ts [calls=1000000] [window=256]   (results: docs/soak.md)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const TOTAL = Number(process.argv[2] ?? 1_000_000);
const WINDOW = Number(process.argv[3] ?? 256);
const SAMPLE_EVERY = Math.max(1, Math.floor(TOTAL / 10));

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const cpuMs = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};

// 1. Build the fixture the tests use (the same release settings as `mcpbin build`).
const bin = resolve(ROOT, ".test-build/soak-fixture");
const build = Bun.spawnSync(
  [
    process.execPath,
    resolve(ROOT, "bin/mcpbin.ts"),
    "build",
    resolve(ROOT, "test/fixtures/servers/fixture.ts"),
    "--outfile",
    bin,
  ],
  { stdout: "ignore", stderr: "pipe" },
);
if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr}`);

// 2. The mix: mostly the fast synchronous path, plus async calls (timers, AbortController, the
// in-flight map), progress notifications, isError results, and cancellations (no response).
type Kind = "echo" | "wait" | "progress" | "invalid" | "cancel";
function request(i: number): { line: string; kind: Kind } {
  const r = i % 200;
  if (r < 140)
    return {
      kind: "echo",
      line: `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"echo","arguments":{"text":"soak ${i}"}}}`,
    };
  if (r < 190)
    return {
      kind: "wait",
      line: `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"wait","arguments":{"ms":0}}}`,
    };
  if (r < 193)
    return {
      kind: "progress",
      line: `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":${i}}}}`,
    };
  if (r < 199)
    return {
      kind: "invalid",
      line: `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}`,
    };
  // A long wait, cancelled at once: it must be aborted and never answered.
  return {
    kind: "cancel",
    line: `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"wait","arguments":{"ms":60000}}}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${i}}}`,
  };
}

const p = Bun.spawn([bin], {
  stdin: "pipe",
  stdout: "pipe",
  stderr: "ignore",
  env: { ...process.env, FIXTURE_MAX_IN_FLIGHT: "64" },
});
p.stdin.write(
  `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
);
await p.stdin.flush();

let sent = 0;
let answered = 0;
let expected = 0; // responses owed for what was sent (cancelled calls owe none)
let cancelled = 0;
let errors = 0;
let progress = 0;
const samples: { calls: number; rssKiB: number; seconds: number }[] = [];
const t0 = performance.now();

/** Keeps up to WINDOW requests outstanding (the client side of the pipe never waits on itself). */
function topUp() {
  let chunk = "";
  while (sent < TOTAL && sent - answered - cancelled < WINDOW) {
    const { line, kind } = request(sent++);
    chunk += line + "\n";
    if (kind === "cancel") cancelled++;
    else expected++;
  }
  if (chunk) {
    p.stdin.write(chunk);
    void p.stdin.flush();
  }
}

topUp();
const dec = new TextDecoder();
let buf = "";
let next = 0;
for await (const chunk of p.stdout) {
  buf += dec.decode(chunk, { stream: true });
  let start = 0;
  let nl: number;
  while ((nl = buf.indexOf("\n", start)) !== -1) {
    const line = buf.slice(start, nl);
    start = nl + 1;
    const m = JSON.parse(line);
    if (m.method === "notifications/progress") {
      progress++;
      continue;
    }
    if (m.id === "init") {
      samples.push({ calls: 0, rssKiB: rssKiB(p.pid), seconds: 0 });
      continue;
    }
    if (m.error || (m.result?.isError && !String(m.result.content?.[0]?.text).startsWith("Invalid arguments")))
      errors++;
    answered++;
    if (answered >= next) {
      samples.push({ calls: answered, rssKiB: rssKiB(p.pid), seconds: (performance.now() - t0) / 1000 });
      next = answered + SAMPLE_EVERY;
    }
  }
  buf = buf.slice(start);
  if (sent >= TOTAL && answered >= expected) break;
  topUp();
}
const end = { rssKiB: rssKiB(p.pid), cpuMs: cpuMs(p.pid), seconds: (performance.now() - t0) / 1000 };
p.stdin.end();
const code = await p.exited;

const mib = (k: number) => (k / 1024).toFixed(1);
console.log(
  `soak: ${TOTAL} calls (${answered} answered, ${cancelled} cancelled and unanswered, ${progress} progress notifications, ${errors} unexpected errors), window ${WINDOW}, maxInFlight 64`,
);
console.log(
  `time ${end.seconds.toFixed(1)} s, ${Math.round(answered / end.seconds)} calls/s, server CPU ${(end.cpuMs / 1000).toFixed(1)} s, exit code ${code}`,
);
console.log("| answered calls | RSS (MiB) | elapsed (s) |\n|---:|---:|---:|");
for (const s of samples) console.log(`| ${s.calls} | ${mib(s.rssKiB)} | ${s.seconds.toFixed(1)} |`);
console.log(`| end (${answered}) | ${mib(end.rssKiB)} | ${end.seconds.toFixed(1)} |`);
if (errors > 0 || code !== 0 || answered !== expected) process.exitCode = 1;
