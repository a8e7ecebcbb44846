// The proxy loses nothing and passes nothing to the wrong place, against a hand-written upstream that does
// what a proxy must survive (test/fixtures/upstreams/faults.ts), over `mcpbin proxy` on stdio:
// - an oversized upstream line is refused while buffering (proxy RSS measured), its call answered at once;
// - upstream instructions are labelled with the upstream's name, and an entry can leave them out;
// - an upstream killed between calls is restarted and the call that never reached it is retried there.
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { BUN, ROOT, McpProcess, initLine, INITED } from "../helpers/proc.ts";
import { serversFile } from "./front.ts";
import { peakRssMiB } from "../helpers/proc-stats.ts";
import { HttpProcess } from "../http/helpers.ts";

setDefaultTimeout(60_000);
const FAULTS = resolve(ROOT, "test/fixtures/upstreams/faults.ts");
const live: McpProcess[] = [];
afterEach(() => {
  for (const p of live.splice(0)) p.kill();
});

/** `mcpbin proxy` over stdio in front of these upstreams (a servers file's entries). */
function proxyOf(servers: Record<string, unknown>): McpProcess {
  const p = new McpProcess([BUN, resolve(ROOT, "bin/mcpbin.ts"), "proxy", "--servers", serversFile(servers)]);
  live.push(p);
  return p;
}

/** `mcpbin proxy` over stdio in front of the faults upstream (entry `extra` merged into its servers-file entry). */
const proxy = (extra: Record<string, unknown> = {}) => proxyOf({ up: { command: BUN, args: [FAULTS], ...extra } });

/**
 * True until a process has died with all its threads (only then are its files closed: a killed
 * multi-threaded process shows its leader as a zombie while other threads still run).
 */
function alive(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((t) => {
      try {
        return !/^\S+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8"));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

const call = (p: McpProcess, id: number, name: string, args: Record<string, unknown> = {}) =>
  p.request("tools/call", { name, arguments: args }, id);

describe("oversized upstream messages", () => {
  test("a 50 MiB line from the upstream is refused while buffering (proxy RSS stays low), its call answered at once with why, and the proxy goes on", async () => {
    const p = proxy();
    await p.handshake("2025-06-18");
    const t0 = performance.now();
    const r = await call(p, 2, "huge_line", { mb: 50 });
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(r.result.isError).toBe(true);
    expect(r.result.content[0].text).toMatch(/over \d+ bytes/);
    const peak = peakRssMiB(p.proc.pid);
    process.stderr.write(`proxy peak RSS with a 50 MiB upstream line: ${peak.toFixed(0)} MiB\n`);
    // main: 383 MiB (the line was buffered, joined and parsed before the 16 MiB limit refused it)
    expect(peak).toBeLessThan(120);
    const ok = await call(p, 3, "echo", { text: "still here" });
    expect(ok.result.content[0].text).toBe("still here");
  });

  test("a 50 MiB answer from an HTTP upstream is refused while reading (proxy RSS stays low), its call answered at once with why", async () => {
    const up = await HttpProcess.source("test/fixtures/servers/unread.ts", {
      env: { T_MAX_RESULT: String(100 << 20) },
    });
    try {
      const p = proxyOf({ big: { url: up.url } });
      await p.handshake("2025-06-18");
      const r = await call(p, 2, "huge", { i: 1, mb: 50 });
      expect(r.result.isError).toBe(true);
      expect(r.result.content[0].text).toMatch(/over \d+ bytes/);
      const peak = peakRssMiB(p.proc.pid);
      process.stderr.write(`proxy peak RSS with a 50 MiB HTTP answer: ${peak.toFixed(0)} MiB\n`);
      expect(peak).toBeLessThan(120);
      expect((await call(p, 3, "hello")).result.content[0].text).toBe("hello");
    } finally {
      up.kill();
    }
  });
});

describe("upstream instructions", () => {
  test("labelled with the upstream's name", async () => {
    const p = proxy();
    const r = await p.handshake("2025-06-18");
    expect(r.instructions).toContain('upstream server "up"');
    expect(r.instructions).toContain("Use the faults tools with care.");
  });
  test('an entry with "instructions": false leaves them out', async () => {
    const p = proxy({ instructions: false });
    const r = await p.handshake("2025-06-18");
    expect(r.instructions ?? "").not.toContain("Use the faults tools with care.");
  });
});

describe("a dead upstream between calls", () => {
  test("killed between calls, the upstream is restarted and each call that never reached it is retried there (never EPIPE)", async () => {
    const p = proxy();
    await p.handshake("2025-06-18");
    expect((await call(p, 2, "echo", { text: "first" })).result.content[0].text).toBe("first");
    for (let i = 0; i < 5; i++) {
      const child = Number(/^(\d+)/.exec(Bun.spawnSync(["pgrep", "-P", String(p.proc.pid)]).stdout.toString())?.[1]);
      expect(child).toBeGreaterThan(0);
      // The proxy is stopped while its upstream dies and the next call arrives: when it resumes, the call may
      // be written before the exit is seen (EPIPE on main), or after (a restart).
      process.kill(p.proc.pid, "SIGSTOP");
      process.kill(child, "SIGKILL");
      while (alive(child)) await Bun.sleep(1);
      const pending = call(p, 10 + i, "echo", { text: `after kill ${i}` });
      await Bun.sleep(50);
      process.kill(p.proc.pid, "SIGCONT");
      const r = await pending;
      if (r.result.isError) throw new Error(`call ${i} failed: ${r.result.content[0].text}\n${p.stderr}`);
      expect(r.result.content[0].text).toBe(`after kill ${i}`);
    }
  });
});
