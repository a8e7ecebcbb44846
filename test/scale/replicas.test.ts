// Three replicas of ONE compiled executable behind a real HAProxy (round robin, no stickiness) sharing a real
// redis-server (http.redis through MCPBIN_REDIS_URL): SDK v1 legacy and v2 2026-07-28 clients whose requests
// land on different replicas; a live addTool on one replica reaches a legacy GET stream and a
// subscriptions/listen stream held on the others; a replica killed mid-stream, and the client's reconnect
// with Last-Event-ID through the load balancer to another one, loses no event and repeats none; a dropped POST
// stream resumes on a replica that does not run its call (the one that does relays its events through Redis).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { SseReader } from "../helpers/sse.ts";
import { META, modernHeaders, post, type HttpProcess } from "../http/helpers.ts";
import type { Haproxy } from "./haproxy.ts";
import { startCluster, type Cluster } from "./cluster.ts";

const LEGACY = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let cluster: Cluster;
let replicas: HttpProcess[] = [];
let lb: Haproxy;

beforeAll(async () => {
  cluster = await startCluster();
  ({ replicas, lb } = cluster);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** A legacy session initialized on replica `at`. @returns its id. */
async function session(at: string): Promise<string> {
  const r = await post(
    at,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    LEGACY,
  );
  const sid = r.headers.get("mcp-session-id")!;
  expect(
    (await post(at, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...LEGACY, "mcp-session-id": sid }))
      .status,
  ).toBe(202);
  return sid;
}
let nextId = 100;
const addTool = (at: string, sid: string, name: string) =>
  post(
    at,
    { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "add_tool", arguments: { name } } },
    { ...LEGACY, "mcp-session-id": sid },
  );
const getStream = async (at: string, sid: string, last?: string) =>
  new SseReader(
    await fetch(at, {
      headers: { accept: "text/event-stream", "mcp-session-id": sid, ...(last ? { "last-event-id": last } : {}) },
    }),
  );

test("an SDK v1 legacy session is served by every replica in turn (the session lives in Redis)", async () => {
  const client = new ClientV1({ name: "v1-lb", version: "1" });
  await client.connect(new TransportV1(new URL(lb.url)));
  const seen = new Set<string>();
  for (let i = 0; i < 9; i++) {
    const r = await client.callTool({ name: "whoami", arguments: {} });
    seen.add((r.content as { text: string }[])[0]!.text);
  }
  expect([...seen].sort()).toEqual(["r1", "r2", "r3"]);
  expect((await client.listTools()).tools.map((t) => t.name)).toContain("whoami");
  await client.close();
});

test("an SDK v2 2026-07-28 client is served by every replica in turn", async () => {
  const client = new ClientV2({ name: "v2-lb", version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new TransportV2(new URL(lb.url)));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const seen = new Set<string>();
  for (let i = 0; i < 9; i++)
    seen.add(((await client.callTool({ name: "whoami", arguments: {} })).content as { text: string }[])[0]!.text);
  expect([...seen].sort()).toEqual(["r1", "r2", "r3"]);
  await client.close();
});

test("a live addTool on r1 reaches a legacy GET stream held on r2 and a subscriptions/listen stream held on r3", async () => {
  const [r1, r2, r3] = replicas.map((r) => r.url) as [string, string, string];
  const sid = await session(r1);
  const legacyStream = await getStream(r2, sid); // r2 reads the session from Redis
  expect((await legacyStream.next())!.id).toMatch(/^gr\.\d+$/);
  const listen = new SseReader(
    await fetch(r3, {
      method: "POST",
      headers: modernHeaders("subscriptions/listen"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "L",
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: META },
      }),
    }),
  );
  expect((await listen.message())!.msg.method).toBe("notifications/subscriptions/acknowledged");
  expect((await addTool(r1, sid, "live-1")).json.result.content[0].text).toBe("added live-1");
  expect((await legacyStream.message())!.msg).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  expect((await listen.message())!.msg).toMatchObject({
    method: "notifications/tools/list_changed",
    params: { _meta: { "io.modelcontextprotocol/subscriptionId": "L" } },
  });
  await legacyStream.close();
  await listen.close();
});

test("a POST stream dropped on r1 resumes with Last-Event-ID on r2, then again through the load balancer: every event and the result, once, in order", async () => {
  const [r1, r2] = replicas.map((r) => r.url) as [string, string];
  const sid = await session(r1);
  const ctl = new AbortController();
  const res = await fetch(r1, {
    method: "POST",
    headers: { ...LEGACY, "mcp-session-id": sid },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 77,
      method: "tools/call",
      params: { name: "steps", arguments: { n: 8, ms: 150 }, _meta: { progressToken: "t" } },
    }),
    signal: ctl.signal,
  });
  const a = new SseReader(res);
  expect((await a.next())!.id).toMatch(/^p[0-9a-f]{32}\.0$/);
  const p1 = (await a.message())!;
  expect(p1.msg.params.progress).toBe(1);
  ctl.abort(); // the client drops the stream; the call goes on on r1
  const b = await getStream(r2, sid, p1.id); // r2 does not run the call: r1 relays its events through Redis
  const got: { id?: string; msg: any }[] = [];
  got.push((await b.message())!, (await b.message())!);
  await b.close();
  const c = await getStream(lb.url, sid, got[1]!.id); // and again, on whichever replica HAProxy picks
  for (let m = await c.message(5000); m; m = await c.message(5000)) got.push(m);
  expect(got.slice(0, -1).map((m) => m.msg.params.progress)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  expect(got.at(-1)!.msg).toMatchObject({ id: 77, result: { content: [{ type: "text", text: "done 8" }] } });
  const seq = got.map((m) => Number(m.id!.split(".")[1]));
  expect(seq).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
}, 30_000);

test("a POST stream's id no replica knows is 410 Gone on every replica", async () => {
  const sid = await session(replicas[0]!.url);
  const r = await fetch(replicas[2]!.url, {
    headers: { accept: "text/event-stream", "mcp-session-id": sid, "last-event-id": `p${"0".repeat(32)}.3` },
  });
  expect(r.status).toBe(410);
});

test("a replica killed mid-stream: the reconnect with Last-Event-ID through the load balancer loses no event and repeats none", async () => {
  const [r1, r2] = replicas.map((r) => r.url) as [string, string];
  const sid = await session(r1);
  const held = await getStream(r2, sid);
  await held.next();
  await addTool(r1, sid, "k1");
  await addTool(r1, sid, "k2");
  const e1 = (await held.message())!;
  const e2 = (await held.message())!;
  replicas[1]!.kill(); // r2 dies holding the stream
  await addTool(r1, sid, "k3"); // while no replica holds it
  await addTool(r1, sid, "k4");
  const seq = (id?: string) => Number(id!.split(".")[1]);
  // The client resumes where it was, through HAProxy (which no longer sends anything to r2).
  const resumed = await getStream(lb.url, sid, e2.id);
  expect((await resumed.next())!.retry).toBe(200);
  const m3 = (await resumed.message())!;
  const m4 = (await resumed.message())!;
  await addTool(r1, sid, "k5");
  const m5 = (await resumed.message())!;
  const ids = [e1, e2, m3, m4, m5].map((m) => seq(m.id));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(5);
  expect([m3, m4, m5].every((m) => m.msg.method === "notifications/tools/list_changed")).toBe(true);
  await expect(resumed.message(500)).rejects.toThrow(/no SSE event/); // no repeat behind them
  await resumed.close();
}, 30_000);
