/**
 * The measuring harness of scripts/bench.ts: one stdio MCP server, spawned directly, measured over its pipes.
 *
 * Adapted from ../shared/bench/mcp-bench.ts (the calibration harness of this benchmark, run against the
 * peers on this machine): same phases and checks, plus `--call` (which tool the cold first call uses)
 * and `--cold-only`. Phases: cold (N spawns: spawn → initialize / server/discover response, spawn → first
 * tools/call response), seq (one-at-a-time calls, harness and server pinned to CPU 0 with taskset),
 * pipe (N calls in one write; wall time and server CPU from /proc/PID/stat), rss (VmHWM at the end).
 * Every response is checked (ids, no error, content[0].text == x+y; a final echo of a non-ASCII text).
 *
 * Usage: bun scripts/bench/harness.ts [options] -- <command> [args...]   (one JSON result line on stdout)
 */
import { appendFileSync } from "node:fs";
import { checkResult, Conn, MODERN_META, openSession } from "./conn.ts";
import { DEFAULTS, type BenchOptions, type BenchResult, type SeqStats } from "./options.ts";
import { ALL_CPUS, median, pinTo, procCpuSeconds, procStatusKb, quantile } from "./proc-stats.ts";

export { DEFAULTS, type BenchOptions, type BenchResult, type SeqStats } from "./options.ts";

const NAN_STATS: SeqStats = { p50: NaN, p90: NaN, p99: NaN, max: NaN, mean: NaN, cpu_us_per_call: null };

/**
 * Measures one server (all phases) and checks every response.
 * @returns the result; `ok` only when every phase passed its checks.
 */
export async function benchServer(o: BenchOptions): Promise<BenchResult> {
  const modern = o.era === "modern";
  const callParams = (name: string, args: Record<string, unknown>) =>
    modern ? { name, arguments: args, _meta: MODERN_META } : { name, arguments: args };
  const errors: string[] = [];
  const log = (s: string) => o.quiet || process.stderr.write(`[${o.name}] ${s}\n`);
  const res: BenchResult = {
    name: o.name,
    cmd: o.cmd,
    ok: false,
    errors,
    era: o.era,
    cold_init_ms: { min: NaN, median: NaN, all: [] },
    cold_first_call_ms: { min: NaN, median: NaN },
    seq_us: NAN_STATS,
    seq_pinned: false,
    pipe: { calls: o.pipe, seconds: NaN, calls_per_s: NaN, server_cpu_s: null, cpu_us_per_call: null },
    rss_kb: { hwm: null, rss_end: null, after_init_kb: null },
    protocolVersion_negotiated: null,
    when: new Date().toISOString(),
  };

  // ---- cold start ----
  const coldInit: number[] = [];
  const coldCall: number[] = [];
  for (let i = 0; i < o.cold; i++) {
    const t0 = performance.now();
    const c = new Conn(o.cmd, o.cwd, o.env);
    try {
      await openSession(c, 1, o, 30_000);
      const t1 = performance.now();
      const r = await c.request(2, "tools/call", callParams(o.call.name, o.call.arguments), 30_000);
      const t2 = performance.now();
      const bad = checkResult(r, o.call.expect, o.check);
      if (bad) throw new Error(`cold first call: ${bad}`);
      coldInit.push(t1 - t0);
      coldCall.push(t2 - t0);
    } catch (e) {
      errors.push(`cold #${i}: ${(e as Error).message}`);
      await c.kill();
      break;
    }
    await c.kill();
  }
  res.cold_init_ms = {
    min: Math.min(...coldInit),
    median: median(coldInit),
    all: coldInit.map((x) => Math.round(x * 10) / 10),
  };
  res.cold_first_call_ms = { min: Math.min(...coldCall), median: median(coldCall) };
  log(
    `cold init median ${res.cold_init_ms.median.toFixed(1)} ms; first call median ${res.cold_first_call_ms.median.toFixed(1)} ms`,
  );
  if (o.coldOnly) {
    res.ok = errors.length === 0 && coldInit.length === o.cold;
    return res;
  }

  // ---- one long-lived session ----
  const c = new Conn(o.cmd, o.cwd, o.env);
  try {
    res.protocolVersion_negotiated = await openSession(c, "init", o, 30_000);
    res.rss_kb.after_init_kb = procStatusKb(c.pid, "VmRSS");
    let nextId = 1;
    const add = async (x: number, y: number) => {
      const r = await c.request(nextId++, "tools/call", callParams("add_numbers", { x, y }), o.timeoutMs);
      const bad = checkResult(r, String(x + y), o.check);
      if (bad) throw new Error(`call add_numbers(${x}, ${y}): ${bad}`);
    };
    for (let i = 0; i < o.warmup; i++) await add(i, 1);

    // Sequential, harness and server pinned to one CPU: unpinned p50 on a small VM is bimodal
    // (same-CPU vs cross-CPU wake-ups), pinned it measures the work per round trip.
    const pinned = pinTo(process.pid, "0") && pinTo(c.pid, "0");
    const lat = new Float64Array(o.seq);
    const cpu0 = procCpuSeconds(c.pid);
    for (let i = 0; i < o.seq; i++) {
      const t0 = performance.now();
      await add(i, 7);
      lat[i] = (performance.now() - t0) * 1000;
    }
    const cpu1 = procCpuSeconds(c.pid);
    if (pinned) {
      pinTo(process.pid, ALL_CPUS);
      pinTo(c.pid, ALL_CPUS);
    }
    const sorted = Array.from(lat).sort((a, b) => a - b);
    res.seq_pinned = pinned;
    res.seq_us = {
      p50: quantile(sorted, 0.5),
      p90: quantile(sorted, 0.9),
      p99: quantile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? NaN,
      mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
      cpu_us_per_call: cpu0 !== null && cpu1 !== null ? ((cpu1 - cpu0) / o.seq) * 1e6 : null,
    };
    log(
      `seq ${o.seq} calls${pinned ? " (pinned cpu0)" : ""}: p50 ${res.seq_us.p50.toFixed(0)} µs, p99 ${res.seq_us.p99.toFixed(0)} µs`,
    );

    // ---- pipelined: N requests in one write ----
    const base = 1_000_000;
    const expected = new Map<number, string>();
    const parts: string[] = [];
    for (let i = 0; i < o.pipe; i++) {
      expected.set(base + i, String(i * 3));
      parts.push(
        JSON.stringify({
          jsonrpc: "2.0",
          id: base + i,
          method: "tools/call",
          params: callParams("add_numbers", { x: i, y: 2 * i }),
        }),
      );
    }
    const payload = parts.join("\n") + "\n";
    let got = 0;
    let badCount = 0;
    let firstBad: string | null = null;
    const done = new Promise<void>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`pipe phase: only ${got}/${o.pipe} responses after ${o.timeoutMs} ms`)),
        o.timeoutMs,
      );
      void c.exited.then(
        (code) => (
          clearTimeout(t),
          reject(new Error(`server exited (code ${code}) during the pipe phase after ${got}/${o.pipe}`))
        ),
      );
      c.onResponse = (m) => {
        const exp = typeof m.id === "number" ? expected.get(m.id) : undefined;
        if (exp === undefined) {
          badCount++;
          firstBad ??= `unknown or duplicate id ${JSON.stringify(m.id)}`;
        } else {
          expected.delete(m.id as number);
          const bad = checkResult(m, exp, o.check);
          if (bad) {
            badCount++;
            firstBad ??= `id ${m.id}: ${bad}`;
          }
        }
        if (++got === o.pipe) {
          clearTimeout(t);
          resolve();
        }
      };
    });
    const pc0 = procCpuSeconds(c.pid);
    const t0 = performance.now();
    c.write(payload);
    await done;
    const secs = (performance.now() - t0) / 1000;
    const pc1 = procCpuSeconds(c.pid);
    c.onResponse = null;
    if (badCount) throw new Error(`pipe phase: ${badCount} bad responses; first: ${firstBad}`);
    res.pipe.seconds = secs;
    res.pipe.calls_per_s = o.pipe / secs;
    if (pc0 !== null && pc1 !== null) {
      res.pipe.server_cpu_s = pc1 - pc0;
      res.pipe.cpu_us_per_call = ((pc1 - pc0) / o.pipe) * 1e6;
    }
    log(`pipe ${o.pipe} calls in ${secs.toFixed(3)} s (server CPU ${res.pipe.server_cpu_s?.toFixed(2)} s)`);

    res.rss_kb.hwm = procStatusKb(c.pid, "VmHWM");
    res.rss_kb.rss_end = procStatusKb(c.pid, "VmRSS");
    log(`VmHWM ${((res.rss_kb.hwm ?? NaN) / 1024).toFixed(1)} MiB`);

    if (o.check === "full") {
      const r = await c.request("echo", "tools/call", callParams("echo", { text: "héllo ✓" }), 30_000);
      if (r.error || r.result?.content?.[0]?.text !== "héllo ✓")
        throw new Error(`echo check failed: ${JSON.stringify(r).slice(0, 200)}`);
    }
    if (c.protocolErrors.length) throw new Error(c.protocolErrors.slice(0, 3).join("; "));
  } catch (e) {
    errors.push((e as Error).message);
  } finally {
    c.proc.stdin!.end();
    const t = setTimeout(() => c.proc.kill("SIGKILL"), 2000);
    await c.exited;
    clearTimeout(t);
  }
  res.ok = errors.length === 0 && coldInit.length === o.cold;
  if (!res.ok) log(`ERRORS: ${errors.join(" | ")}`);
  return res;
}

/** Parses the harness command line (see the module comment); `--options JSON` sets any field at once. */
export function parseHarnessArgs(argv: string[]): { options: BenchOptions; jsonFile?: string } {
  const dd = argv.indexOf("--");
  if (dd < 0 || dd === argv.length - 1)
    throw new Error("usage: harness.ts [--options JSON] [--json FILE] -- <server command> [args...]");
  const cmd = argv.slice(dd + 1);
  const flags = argv.slice(0, dd);
  let options: BenchOptions = { ...DEFAULTS, name: cmd.join(" "), cmd };
  let jsonFile: string | undefined;
  for (let i = 0; i < flags.length; i += 2) {
    const v = flags[i + 1] ?? "";
    if (flags[i] === "--options") options = { ...options, ...JSON.parse(v) };
    else if (flags[i] === "--json") jsonFile = v;
    else throw new Error(`unknown harness flag ${flags[i]}`);
  }
  return { options, jsonFile };
}

if (import.meta.main) {
  const { options, jsonFile } = parseHarnessArgs(process.argv.slice(2));
  const r = await benchServer(options);
  const line = JSON.stringify(r);
  if (jsonFile) appendFileSync(jsonFile, line + "\n");
  console.log(line);
  process.exit(r.ok ? 0 : 1);
}
