// Fuzz: 50,000+ mutated messages (fixed seed) in randomly sized chunks into the compiled fixture; it stays up and answers each request once.
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { INITED, initLine, META } from "../helpers/proc.ts";
import { assertAllJson, cpuTicks, exitWithin, fixtureBin, killAfterEach, spawnFixture } from "./harness.ts";

killAfterEach();

setDefaultTimeout(60_000);
beforeAll(async () => {
  await fixtureBin();
}, 60_000);

const SEED = 0x8badf00d;
const MESSAGES = 50_000;
const MAX_LINE = 8192;

/** mulberry32: a small seeded PRNG, so every run sends the same bytes. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}

const enc = new TextEncoder();
const TEXTS = [
  "",
  "a",
  "a—b🎉c",
  "line1\nline2",
  'q"uote\\',
  "\u2028\u2029",
  "é".repeat(40),
  "\ud83d",
  "x".repeat(300),
];
/** Byte sequences the mutator splices in: framing and JSON syntax, CR, NUL, invalid and partial UTF-8, a BOM, U+2028. */
const SPLICES = [
  "\n",
  "\r",
  "\r\n",
  "\0",
  '"',
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "\\",
  "null",
  "1e999",
  "-0",
  "\u2028",
  "\ufeff",
  "🎉",
]
  .map((s) => enc.encode(s))
  .concat([
    new Uint8Array([0xff]),
    new Uint8Array([0xc3]),
    new Uint8Array([0xf0, 0x9f]),
    new Uint8Array([0xed, 0xa0, 0x80]),
  ]);

function template(r: ReturnType<typeof prng>, id: number | string): unknown {
  const callOf = (name: string, args: unknown, meta?: unknown) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
  });
  switch (r.int(16)) {
    case 0:
      return { jsonrpc: "2.0", id, method: "ping" };
    case 1:
      return { jsonrpc: "2.0", id, method: "tools/list" };
    case 2:
      return callOf("echo", { text: r.pick(TEXTS) });
    case 3:
      return callOf("add", { a: r.int(100), b: r.next() });
    case 4:
      return callOf("wait", { ms: r.int(4) });
    case 5:
      return callOf("progress", {}, { progressToken: `p${id}` });
    case 6:
      return callOf(r.pick(["noargs", "boom", "stats", "lines", "obj", "snap"]), r.int(2) ? {} : null);
    case 7:
      return callOf("search", { query: r.pick(TEXTS), limit: r.int(20), sort: r.pick(["asc", "desc", "up"]) });
    case 8:
      return callOf("weather", { city: r.pick(["ok", "bad"]) });
    case 9:
      return callOf("echo", { text: r.pick(TEXTS) }, META);
    case 10:
      return { jsonrpc: "2.0", id, method: "tools/list", params: { _meta: META } };
    case 11:
      return {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: typeof id === "number" ? id - r.int(5) : id, reason: "fuzz" },
      };
    case 12:
      return [{ jsonrpc: "2.0", id, method: "ping" }];
    case 13:
      return { jsonrpc: "2.0", id, result: {} };
    case 14:
      return callOf("segment", { from: { x: 0, y: 0 }, to: { x: r.int(9), y: "4" } });
    default:
      return {
        jsonrpc: "2.0",
        id,
        method: r.pick(["resources/list", "initialize", "no/such", "server/discover"]),
        params: r.int(2) ? {} : { _meta: META },
      };
  }
}

function mutate(r: ReturnType<typeof prng>, line: Uint8Array): Uint8Array {
  let b = line;
  const n = r.int(2) ? 0 : 1 + r.int(3); // half the lines stay intact, the rest get 1..3 mutations
  for (let k = 0; k < n; k++) {
    const at = r.int(b.length + 1);
    switch (r.int(6)) {
      case 0: {
        // flip one byte
        if (b.length === 0) break;
        b = b.slice();
        const i = Math.min(at, b.length - 1);
        b[i] = b[i]! ^ (1 << r.int(8));
        break;
      }
      case 1: // delete a short range
        b = new Uint8Array([...b.subarray(0, at), ...b.subarray(at + 1 + r.int(8))]);
        break;
      case 2: // splice in a hostile sequence
        b = new Uint8Array([...b.subarray(0, at), ...r.pick(SPLICES), ...b.subarray(at)]);
        break;
      case 3: // truncate
        b = b.subarray(0, at);
        break;
      case 4: {
        // duplicate a slice
        const len = r.int(16);
        b = new Uint8Array([...b.subarray(0, at), ...b.subarray(at, at + len), ...b.subarray(at)]);
        break;
      }
      default: // random byte
        b = new Uint8Array([...b.subarray(0, at), r.int(256), ...b.subarray(at)]);
    }
  }
  return b;
}

/** What the client may expect for one id: exactly `must` answers, or up to `may` (cancelled, or a client response). */
interface Expect {
  must: number;
  may: number;
}

/**
 * The oracle, independent of the server's code: frame the bytes exactly as MCP stdio says (LF, one
 * CR stripped, lines over the cap skipped), parse, and count per id what must (or may) be answered.
 */
function expectations(stream: Uint8Array): Map<string, Expect> {
  const out = new Map<string, Expect>();
  const cancelled = new Set<string>();
  const dec = new TextDecoder();
  let start = 0;
  const at = (key: string) => out.get(key) ?? (out.set(key, { must: 0, may: 0 }), out.get(key)!);
  while (start <= stream.length) {
    let nl = stream.indexOf(10, start);
    if (nl === -1) nl = stream.length;
    const raw = stream.subarray(start, nl);
    start = nl + 1;
    if (raw.length > MAX_LINE) continue;
    let m: any;
    try {
      m = JSON.parse(dec.decode(raw[raw.length - 1] === 13 ? raw.subarray(0, -1) : raw));
    } catch {
      continue;
    }
    if (typeof m !== "object" || m === null || Array.isArray(m)) continue;
    if (m.method === "notifications/cancelled" && m.params && typeof m.params === "object")
      cancelled.add(JSON.stringify(m.params.requestId));
    const id = m.id;
    if (!(typeof id === "string" || Number.isSafeInteger(id))) continue; // the server's readable ids (beyond 2^53: -32600 with id null)
    const e = at(JSON.stringify(id));
    if (m.method === undefined && ("result" in m || "error" in m)) e.may++;
    else e.must++;
  }
  for (const key of cancelled) {
    const e = out.get(key);
    if (e) {
      e.may += e.must;
      e.must = 0;
    }
  }
  return out;
}

describe("fuzz", () => {
  test(`${MESSAGES} mutated messages in random chunks: the process stays up, each request with a readable id gets exactly one response, every line is JSON`, async () => {
    const r = prng(SEED);
    const parts: Uint8Array[] = [enc.encode(initLine("2025-06-18") + "\n" + INITED + "\n")];
    for (let i = 0; i < MESSAGES; i++) {
      const id = r.int(3) === 0 ? `s${i}` : i + 2;
      let line = enc.encode(JSON.stringify(template(r, id)));
      if (r.int(500) === 0)
        line = enc.encode(
          JSON.stringify({
            jsonrpc: "2.0",
            id,
            method: "tools/call",
            params: { name: "echo", arguments: { text: "o".repeat(MAX_LINE * 2) } },
          }),
        );
      parts.push(mutate(r, line), r.int(10) === 0 ? enc.encode("\r\n") : enc.encode("\n"));
    }
    parts.push(enc.encode('\n{"jsonrpc":"2.0","id":"fuzz-end","method":"ping"}\n'));
    const stream = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) {
      stream.set(p, off);
      off += p.length;
    }
    const expected = expectations(stream);
    // FUZZ_DUMP=path writes the exact byte stream, to replay a failure by hand: binary < path.
    if (process.env.FUZZ_DUMP) await Bun.write(process.env.FUZZ_DUMP, stream);
    const t0 = performance.now();

    const p = await spawnFixture({
      FIXTURE_MAX_LINE_BYTES: String(MAX_LINE),
      FIXTURE_TIMEOUT_MS: "250",
      FIXTURE_GRACE_MS: "3000",
    });
    for (let pos = 0; pos < stream.length;) {
      const size = 1 + r.int(r.int(8) === 0 ? 64 : 8192);
      p.proc.stdin.write(stream.subarray(pos, pos + size));
      pos += size;
      // Wait for the pipe now and then: real chunk boundaries, and the sink never holds megabytes.
      if (r.int(16) === 0) await p.proc.stdin.flush();
    }
    await p.proc.stdin.flush();
    const t1 = performance.now();
    await p.response("fuzz-end", 40_000);
    const t2 = performance.now();
    const serverTicks = cpuTicks(p.proc.pid);
    expect(p.proc.exitCode).toBe(null); // still up after everything
    p.closeStdin();
    expect(await exitWithin(p, 10_000)).toBe(0);

    assertAllJson(p);
    const got = new Map<string, number>();
    for (const m of p.messages) {
      if ("method" in m || m.id === null || m.id === undefined) continue;
      const key = JSON.stringify(m.id);
      got.set(key, (got.get(key) ?? 0) + 1);
    }
    const wrong: string[] = [];
    let requests = 0;
    for (const [key, e] of expected) {
      const n = got.get(key) ?? 0;
      requests += e.must;
      if (n < e.must || n > e.must + e.may)
        wrong.push(`${key}: got ${n}, expected ${e.must}${e.may ? `..${e.must + e.may}` : ""}`);
    }
    for (const key of got.keys()) if (!expected.has(key)) wrong.push(`${key}: answered but never asked`);
    expect(wrong.slice(0, 20)).toEqual([]);
    console.error(
      `fuzz: ${stream.length} bytes, ${requests} requests that must be answered, ${p.lines.length} stdout lines; write ${(t1 - t0).toFixed(0)} ms, served ${(t2 - t0).toFixed(0)} ms, server CPU ${serverTicks * 10} ms`,
    );
    expect(requests).toBeGreaterThan(MESSAGES * 0.4); // the oracle really checked a good share of them
  });
});
