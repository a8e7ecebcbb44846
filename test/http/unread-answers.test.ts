// Memory and sockets stay bounded whatever an HTTP client does: answers nobody reads are dropped after the
// write deadline (and their calls cancelled), and the memory they hold is bounded overall. Real server
// processes, raw sockets that never read, peak RSS from /proc.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { HttpProcess, META, MODERN } from "./helpers.ts";
import { peakRssMiB, settled } from "../helpers/proc-stats.ts";

setDefaultTimeout(120_000);
const FIXTURE = "test/fixtures/servers/unread.ts";
const open: { s?: HttpProcess; sockets: Socket[] } = { sockets: [] };
afterEach(() => {
  for (const s of open.sockets.splice(0)) s.destroy();
  open.s?.kill();
});

/** POSTs a modern tools/call on a raw socket that never reads its answer. */
function unreadCall(url: URL, id: number, name: string, args: Record<string, unknown>): Socket {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, _meta: { ...META, progressToken: `t${id}` } },
  });
  const s = connect(Number(url.port), url.hostname);
  s.pause();
  s.on("error", () => {});
  s.write(
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `MCP-Protocol-Version: ${MODERN}\r\nMcp-Method: tools/call\r\nMcp-Name: ${name}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  open.sockets.push(s);
  return s;
}

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

/** Waits until `n` lines of stderr match `re` (polling), at most `ms`. */
async function lines(s: HttpProcess, re: RegExp, n: number, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (count(s.stderr, re) < n) {
    if (performance.now() > until)
      throw new Error(
        `${count(s.stderr, re)} of ${n} lines ${re} within ${ms} ms; stderr ends:\n${s.stderr.slice(-1500)}`,
      );
    await Bun.sleep(50);
  }
}

/** The server answers a fresh client at once: the unread answers did not take it down. */
async function stillServes(s: HttpProcess) {
  const r = await fetch(s.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "hello",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 99,
      method: "tools/call",
      params: { name: "hello", arguments: {}, _meta: META },
    }),
  });
  expect((await r.json()).result.content[0].text).toBe("hello");
}

test("answers nobody reads: 10 unread 15 MiB answers at the default http.maxUnsentBytes hold memory bounded (main: 260–334 MiB) and are dropped at the write deadline", async () => {
  const s = (open.s = await HttpProcess.source(FIXTURE, { env: { T_WRITE_MS: "2000" } }));
  const url = new URL(s.url);
  for (let i = 1; i <= 10; i++) unreadCall(url, i, "huge", { i, mb: 15 });
  await settled(s.proc.pid, () => count(s.stderr, /^(started|returned) huge$/gm));
  expect(count(s.stderr, /^started huge$/gm)).toBeGreaterThan(0);
  // A small answer of another kind is not held back by the large ones waiting to be made.
  await stillServes(s);
  expect(count(s.stderr, /dropped the answer/g)).toBe(0);
  // Each unread answer is dropped once its client has read nothing for 2 s; the calls held back run then.
  await s.waitForStderr(/dropped the answer to tools\/call[^\n]*read nothing for 2000 ms/, 20_000);
  await stillServes(s);
  // The peak of the whole run: every answer made, held unread, dropped.
  await lines(s, /^returned huge$/gm, 10, 60_000);
  await settled(s.proc.pid, () => count(s.stderr, /dropped the answer/g));
  const peak = peakRssMiB(s.proc.pid);
  process.stderr.write(`unread 15 MiB answers: peak ${peak.toFixed(0)} MiB\n`);
  // Measured at the default 64 MiB: 118 MiB when the first answers are held, 135–150 MiB over the whole run (136 in
  // 6 of 7 runs) (an answer being made counts three times its expected size, one of a kind not answered yet is made at a
  // time, and a large one waits for the collection of the last one's garbage). Before: 183–292 MiB when the
  // first answers were held (all 10 made at once when they arrived before the first answer), 260–334 MiB over the
  // run; 320 MiB before there was a bound.
  expect(peak).toBeLessThan(160);
});

test("progress streams nobody reads: 50 unread streams hold bounded memory (main: 199 MiB); at the write deadline each is dropped and its call cancelled", async () => {
  const s = (open.s = await HttpProcess.source(FIXTURE, { env: { T_WRITE_MS: "2000" } }));
  const url = new URL(s.url);
  for (let i = 1; i <= 50; i++) unreadCall(url, i, "chatty", { n: 2_000_000 });
  await lines(s, /^started chatty$/gm, 50, 30_000);
  // Each call is cancelled when its stream is dropped: none runs to its end.
  await lines(s, /^cancelled chatty$/gm, 50, 60_000);
  expect(count(s.stderr, /^returned chatty$/gm)).toBe(0);
  const peak = peakRssMiB(s.proc.pid);
  process.stderr.write(`unread progress streams: peak ${peak.toFixed(0)} MiB\n`);
  // Measured: 93 MiB; main: 199 MiB, its calls running on.
  expect(peak).toBeLessThan(150);
  await stillServes(s);
});
