// Memory under a slow client: a client that does not read stdout while calls complete. The server's peak
// RSS stays bounded (replies and notifications go through the one writer, whose backlog pauses reading,
// and progress for one token is coalesced while queued); then the client reads, and nothing was lost.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import type { Subprocess } from "bun";
import { closeSync, constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, ROOT, initLine, INITED } from "../helpers/proc.ts";
import { assertValidNotification, assertValidResponse } from "../helpers/schema.ts";
import { peakRssMiB, settled } from "../helpers/proc-stats.ts";

setDefaultTimeout(120_000);
const SERVER = join(ROOT, "test/fixtures/servers/slow-client.ts");
const VERSION = "2025-06-18";
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A server whose stdout is a FIFO nobody reads until {@link readAll}: a client that does not read. */
function start() {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-fifo-"));
  const fifo = join(dir, "stdout");
  Bun.spawnSync(["mkfifo", fifo]);
  const rfd = openSync(fifo, constants.O_RDWR); // O_RDWR: opening does not wait for a writer (Linux)
  const wfd = openSync(fifo, constants.O_WRONLY);
  const p: Subprocess<"pipe", number, "pipe"> = Bun.spawn([BUN, SERVER], {
    stdin: "pipe",
    stdout: wfd,
    stderr: "pipe",
  }) as never;
  closeSync(wfd);
  let started = 0;
  void (async () => {
    const d = new TextDecoder();
    for await (const c of p.stderr) started += (d.decode(c).match(/^started /gm) ?? []).length;
  })();
  cleanups.push(() => {
    p.kill("SIGKILL");
    closeSync(rfd);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    p,
    peakRss: () => peakRssMiB(p.pid),
    /** Waits until the server has done what it can without a reader. */
    stalled: () => settled(p.pid, () => started),
    /** Reads stdout until `count` responses (messages with an id) have arrived; returns every message in order. */
    async readAll(count: number): Promise<Record<string, any>[]> {
      const reader = Bun.file(rfd).stream().getReader();
      const d = new TextDecoder();
      const out: Record<string, any>[] = [];
      let buf = "";
      let responses = 0;
      while (responses < count) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += d.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const m = JSON.parse(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
          out.push(m);
          if ("id" in m) responses++;
        }
      }
      reader.releaseLock();
      return out;
    },
  };
}

function requests(tool: string, count: number, args: (i: number) => Record<string, unknown>): string {
  const lines = [initLine(VERSION, 0), INITED];
  for (let i = 1; i <= count; i++)
    lines.push(
      JSON.stringify({
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name: tool, arguments: args(i), _meta: { progressToken: `t${i}` } },
      }),
    );
  return lines.join("\n") + "\n";
}

/** 400 calls of a 1 MiB tool, nothing read: bounded; then every result, whole and in its place. */
async function bigResults(tool: string, limitMiB: number) {
  const s = start();
  s.p.stdin.write(requests(tool, 400, (i) => ({ i })));
  void s.p.stdin.flush();
  await s.stalled();
  const peak = s.peakRss();
  process.stderr.write(`${tool}: peak ${peak.toFixed(0)} MiB\n`);
  expect(peak).toBeLessThan(limitMiB);
  const messages = await s.readAll(401);
  const results = messages.filter((m) => m.id !== 0);
  expect(results.map((m) => m.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
  for (const m of results) {
    assertValidResponse(VERSION, "tools/call", m);
    const text: string = m.result.content[0].text;
    expect(text.length).toBe(1 << 20);
    expect(text.startsWith(`${m.id}${tool === "big_sync" ? "x" : "y"}`)).toBe(true);
  }
  return peak;
}

test("slow client, synchronous tool: 400 × 1 MiB results held back by backpressure, none lost", async () => {
  await bigResults("big_sync", 120);
});

test("slow client, asynchronous tool: no call starts while the unsent backlog, counting the replies being made, is over its bound (main: 268 MiB; bound 160; measured 67), none lost", async () => {
  await bigResults("big_async", 160);
});

test("slow client, progress-heavy tool: progress for one token is coalesced while queued (main: 231 MiB); the last progress and every result arrive, in order", async () => {
  const s = start();
  const n = 20_000;
  s.p.stdin.write(requests("chatty", 20, () => ({ n })));
  void s.p.stdin.flush();
  await s.stalled();
  expect(s.peakRss()).toBeLessThan(150);
  const messages = await s.readAll(21);
  for (let i = 1; i <= 20; i++) {
    const at = messages.findIndex((m) => m.id === i);
    expect(at).toBeGreaterThan(-1);
    assertValidResponse(VERSION, "tools/call", messages[at]!);
    expect(messages[at]!.result.content).toEqual([{ type: "text", text: `sent ${n}` }]);
    const progress = messages.filter(
      (m, k) => m.method === "notifications/progress" && m.params.progressToken === `t${i}` && k < at,
    );
    expect(
      messages.some((m, k) => m.method === "notifications/progress" && m.params.progressToken === `t${i}` && k > at),
    ).toBe(false);
    const values = progress.map((m) => m.params.progress);
    expect(values.at(-1)).toBe(n);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    for (const m of progress) assertValidNotification(VERSION, "ProgressNotification", m);
  }
  // Coalesced: far fewer than the 400,000 sent.
  expect(messages.filter((m) => m.method === "notifications/progress").length).toBeLessThan(20 * n);
});

test("flooding client that does not read: 100,000 small calls (11 MiB) in one write; the server stops reading at its reply backlog instead of taking the flood in; then every result", async () => {
  const s = start();
  const n = 100_000;
  s.p.stdin.write(requests("small", n, (i) => ({ i })));
  // Settles once the server has taken in every byte: while it holds back, most of the flood stays unread here.
  let takenIn = false;
  void Promise.resolve(s.p.stdin.flush()).then(() => (takenIn = true));
  await s.stalled();
  const peak = s.peakRss();
  expect(takenIn).toBe(false);
  const messages = await s.readAll(n + 1);
  const results = messages.filter((m) => m.id !== 0);
  expect(results.length).toBe(n);
  const seen = new Set<number>();
  let wrong = 0;
  for (const m of results) {
    if (m.result?.content?.[0]?.text !== String(m.id)) wrong++;
    seen.add(m.id);
  }
  expect(wrong).toBe(0);
  expect(seen.size).toBe(n);
  assertValidResponse(VERSION, "tools/call", results[n - 1]!);
  process.stderr.write(`PEAK ${peak.toFixed(1)} MiB\n`);
  // 57 MiB measured; 92 MiB with the writer's backlog unbounded (a 1 GiB high-water mark).
  expect(peak).toBeLessThan(78);
});
