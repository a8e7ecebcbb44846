// Legacy GET streams and resumability (2025-03-26 … 2025-11-25 Streamable HTTP): a session's GET stream
// carries list changes and resource updates with event ids and `retry`; a GET with Last-Event-ID replays
// what was missed exactly once, in order (of a GET stream and of a dropped POST stream, whose call goes on);
// an id too old is said so. Raw HTTP against a real server process, and the official SDK v1 client.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { HttpProcess, post } from "./helpers.ts";
import { SseReader } from "../helpers/sse.ts";

const SERVER = "test/fixtures/servers/streams.ts";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let s: HttpProcess;
beforeAll(async () => {
  s = await HttpProcess.source(SERVER, { args: [] });
}, 60_000);
afterAll(() => s?.kill());

/** A legacy session: initialize (2025-06-18) and initialized; returns its id. */
async function session(url: string): Promise<string> {
  const r = await post(
    url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    HEADERS,
  );
  expect(r.status).toBe(200);
  expect(r.json.result.capabilities.tools.listChanged).toBe(true);
  const sid = r.headers.get("mcp-session-id")!;
  expect(
    (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...HEADERS, "mcp-session-id": sid }))
      .status,
  ).toBe(202);
  return sid;
}

let nextId = 10;
function call(url: string, sid: string, name: string, args: Record<string, unknown> = {}) {
  return post(
    url,
    { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } },
    { ...HEADERS, "mcp-session-id": sid },
  );
}

function openGet(url: string, sid: string, lastEventId?: string): Promise<Response> {
  return fetch(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sid,
      ...(lastEventId ? { "last-event-id": lastEventId } : {}),
    },
  });
}

describe("the GET stream", () => {
  test("405 without a session (2026-07-28 has none), 404 for an unknown session, 406 without text/event-stream", async () => {
    expect((await fetch(s.url, { headers: { accept: "text/event-stream" } })).status).toBe(405);
    expect((await openGet(s.url, "nope")).status).toBe(404);
    const sid = await session(s.url);
    expect((await fetch(s.url, { headers: { accept: "application/json", "mcp-session-id": sid } })).status).toBe(406);
  });

  test("starts with retry and an id, then carries tools/list_changed and resources/updated with ids", async () => {
    const sid = await session(s.url);
    const res = await openGet(s.url, sid);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const sse = new SseReader(res);
    const first = (await sse.next())!;
    expect(first.retry).toBe(200);
    expect(first.id).toMatch(/^g[0-9a-z]+\.\d+$/);
    expect((await call(s.url, sid, "add_tool", { name: "one" })).json.result.content[0].text).toBe("added one");
    const changed = (await sse.message())!;
    expect(changed.msg).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(changed.id).toMatch(/^g[0-9a-z]+\.\d+$/);
    expect(
      (
        await post(
          s.url,
          { jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri: "live://counter" } },
          { ...HEADERS, "mcp-session-id": sid },
        )
      ).json.result,
    ).toEqual({});
    await call(s.url, sid, "bump");
    const updated = (await sse.message())!;
    expect(updated.msg).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/updated",
      params: { uri: "live://counter" },
    });
    expect(Number(updated.id!.split(".")[1])).toBeGreaterThan(Number(changed.id!.split(".")[1]));
    await sse.close();
  });

  test("a GET with Last-Event-ID gets what it missed, exactly once, in order, then what comes next", async () => {
    const sid = await session(s.url);
    const a = new SseReader(await openGet(s.url, sid));
    await a.next();
    await call(s.url, sid, "add_tool", { name: "r1" });
    const seen = (await a.message())!;
    await a.close();
    await call(s.url, sid, "add_tool", { name: "r2" });
    await call(s.url, sid, "add_tool", { name: "r3" });
    const b = new SseReader(await openGet(s.url, sid, seen.id));
    const prime = (await b.next())!;
    expect(prime.retry).toBe(200);
    const m2 = (await b.message())!;
    const m3 = (await b.message())!;
    expect([m2.msg.method, m3.msg.method]).toEqual([
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
    ]);
    const seq = (id?: string) => Number(id!.split(".")[1]);
    expect(seq(m2.id)).toBeGreaterThan(seq(seen.id));
    expect(seq(m3.id)).toBeGreaterThan(seq(m2.id));
    await call(s.url, sid, "add_tool", { name: "r4" });
    const m4 = (await b.message())!;
    expect(seq(m4.id)).toBeGreaterThan(seq(m3.id));
    // Nothing else is pending: a repeat would arrive before this keep-alive-free pause ends.
    await expect(b.message(400)).rejects.toThrow(/no SSE event/);
    await b.close();
  });

  test("a second GET of the session replaces the first", async () => {
    const sid = await session(s.url);
    const a = new SseReader(await openGet(s.url, sid));
    await a.next();
    const b = new SseReader(await openGet(s.url, sid));
    await b.next();
    expect(await a.next()).toBeUndefined(); // the first ended
    await call(s.url, sid, "add_tool", { name: "only-b" });
    expect((await b.message())!.msg.method).toBe("notifications/tools/list_changed");
    await b.close();
  });

  test("a malformed Last-Event-ID is 400; one of another process's feed is a gap: said so, and the lists the session watches are announced", async () => {
    const sid = await session(s.url);
    expect((await openGet(s.url, sid, "bogus")).status).toBe(400);
    const res = await openGet(s.url, sid, "gzzzz.5");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-mcpbin-replay")).toBe("gap");
    const sse = new SseReader(res);
    const note = (await sse.next())!;
    expect(note.comments[0]).toContain("events after gzzzz.5 are no longer kept");
    expect((await sse.message())!.msg.method).toBe("notifications/tools/list_changed");
    await sse.close();
  });
});

describe("a dropped POST stream", () => {
  test("the call goes on; a GET with its Last-Event-ID replays the rest and the result, exactly once, in order", async () => {
    const sid = await session(s.url);
    const ctl = new AbortController();
    const res = await fetch(s.url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": sid },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 99,
        method: "tools/call",
        params: { name: "steps", arguments: { n: 6, ms: 120 }, _meta: { progressToken: "t" } },
      }),
      signal: ctl.signal,
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const a = new SseReader(res);
    const prime = (await a.next())!;
    expect(prime.retry).toBe(200);
    expect(prime.id).toMatch(/^p[0-9a-f]{32}\.0$/);
    const p1 = (await a.message())!;
    expect(p1.msg.params.progress).toBe(1);
    ctl.abort();
    const b = new SseReader(await openGet(s.url, sid, p1.id));
    const got: any[] = [];
    for (let m = await b.message(5000); m; m = await b.message(5000)) got.push(m.msg);
    expect(got.slice(0, -1).map((m) => m.params.progress)).toEqual([2, 3, 4, 5, 6]);
    expect(got.at(-1)).toMatchObject({ id: 99, result: { content: [{ type: "text", text: "done 6" }] } });
  });

  test("an id of a stream this server does not keep is 410 Gone", async () => {
    const sid = await session(s.url);
    const r = await openGet(s.url, sid, `p${"0".repeat(32)}.3`);
    expect(r.status).toBe(410);
    expect((await r.json()).error.message).toContain("no longer kept");
  });
});

test("an id older than the feed keeps (eventsTotal) is a gap, said so", async () => {
  const small = await HttpProcess.source(SERVER, { args: [], env: { STREAMS_EVENTS_TOTAL: "3" } });
  try {
    const sid = await session(small.url);
    const a = new SseReader(await openGet(small.url, sid));
    const prime = (await a.next())!;
    await a.close();
    for (let i = 0; i < 6; i++) await call(small.url, sid, "add_tool", { name: `x${i}` });
    const res = await openGet(small.url, sid, prime.id);
    expect(res.headers.get("x-mcpbin-replay")).toBe("gap");
    const b = new SseReader(res);
    expect((await b.next())!.comments[0]).toContain("no longer kept");
    await b.close();
  } finally {
    small.kill();
  }
});

test("the SDK v1 client opens the GET stream by itself and hears tools/list_changed on it", async () => {
  const client = new Client({ name: "v1", version: "1" });
  const heard = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  // The transport opens its GET stream after notifications/initialized: wait until its answer has come.
  let opened!: () => void;
  const getOpen = new Promise<void>((r) => (opened = r));
  const watched: typeof fetch = Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" && res.ok) opened();
      return res;
    },
    { preconnect: fetch.preconnect },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { fetch: watched }));
  await getOpen;
  await client.callTool({ name: "add_tool", arguments: { name: "from-sdk" } });
  await heard;
  expect((await client.listTools()).tools.map((t) => t.name)).toContain("from-sdk");
  await client.close();
});

test("memory: 1,000 idle GET streams take under 20 KiB each (RSS of the server)", async () => {
  const { legacySessions, openIdleStreams } = await import("../helpers/idle-streams.ts");
  const { readFileSync } = await import("node:fs");
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${s.proc.pid}/status`, "utf8"))![1]) * 1024;
  const { settled } = await import("../helpers/proc-stats.ts");
  const sids = await legacySessions(s.url, 1000);
  await settled(s.proc.pid);
  const before = rss();
  const sockets = await openIdleStreams(s.url, sids);
  await settled(s.proc.pid);
  const perStream = (rss() - before) / sids.length;
  for (const k of sockets) k.end();
  console.error(`idle GET stream: ${(perStream / 1024).toFixed(1)} KiB each (1,000 streams)`);
  expect(perStream).toBeLessThan(20 * 1024);
}, 60_000);
