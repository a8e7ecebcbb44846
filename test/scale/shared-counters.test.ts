// What the replicas of one server share besides sessions and the feed (issue 30): three replicas of the ONE
// compiled executable of test/scale behind a real HAProxy (round robin, no stickiness) sharing a real redis-server.
// A rateLimit of N per minute holds across replicas; a cacheResults entry computed on one replica is served by the
// others; the legacy session quota per client holds across replicas; a session in use stays in Redis; a live
// addTool is served by its own replica only. Last, Redis stops: each counter answers at once, as docs/deploy.md says.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { META, modernHeaders, post, type HttpProcess } from "../http/helpers.ts";
import { startCluster, type Cluster } from "./cluster.ts";

const LIMIT = 4;
const IDLE_MS = 3000;
let cluster: Cluster;
let replicas: HttpProcess[];

beforeAll(async () => {
  cluster = await startCluster({
    STREAMS_RATE_LIMIT: String(LIMIT),
    STREAMS_CACHE_MS: "60000",
    STREAMS_SESSIONS_PER_CLIENT: "2",
    STREAMS_SESSION_IDLE_MS: String(IDLE_MS),
  });
  replicas = cluster.replicas;
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** The _meta of a raw 2026-07-28 request, from a client of its own (rateLimit counts per client). */
const DIRECT = { ...META, "io.modelcontextprotocol/clientInfo": { name: "direct", version: "1" } };
const LEGACY = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const text = (r: { content: unknown }) => (r.content as { text: string }[])[0]!.text;

async function v2(name: string): Promise<ClientV2> {
  const client = new ClientV2({ name, version: "1" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new TransportV2(new URL(cluster.lb.url)));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return client;
}

test(`rateLimit({ perMinute: ${LIMIT} }) holds across replicas: ${LIMIT} calls pass, whichever replica answers; the rest are refused`, async () => {
  const client = await v2("rate-a");
  const answers = [];
  for (let i = 0; i < LIMIT + 3; i++) answers.push(await client.callTool({ name: "whoami", arguments: {} }));
  const passed = answers.filter((r) => !r.isError);
  expect(passed.length).toBe(LIMIT);
  expect(new Set(passed.map(text)).size).toBeGreaterThan(1); // the calls were spread over replicas
  for (const r of answers.slice(LIMIT)) {
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Rate limit exceeded: at most 4 tool calls per minute; retry in \d+ s$/);
    expect((r._meta as Record<string, number>)["io.mcpbin/retryAfterSeconds"]).toBeGreaterThan(0);
  }
  // Another client has a bucket of its own.
  const other = await v2("rate-b");
  expect((await other.callTool({ name: "whoami", arguments: {} })).isError).toBeFalsy();
  await client.close();
  await other.close();
});

test("cacheResults: a result computed on one replica is served by the others (through the load balancer and directly)", async () => {
  const client = await v2("cache-a");
  const first = text(await client.callTool({ name: "cached", arguments: { q: "x" } }));
  expect(first).toMatch(/^r[123]:x:1$/);
  for (let i = 0; i < 2; i++)
    expect(text(await client.callTool({ name: "cached", arguments: { q: "x" } }))).toBe(first);
  for (const r of replicas) {
    const direct = await post(
      r.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "cached", arguments: { q: "x" }, _meta: DIRECT } },
      modernHeaders("tools/call", "cached"),
    );
    expect(direct.json.result.content[0].text).toBe(first);
  }
  // Other arguments are another entry, computed by whichever replica gets the call.
  expect(text(await client.callTool({ name: "cached", arguments: { q: "y" } }))).toMatch(/^r[123]:y:\d+$/);
  await client.close();
});

/** A legacy session initialized at `at` by the client holding `token`. @returns its id. */
async function session(at: string, token: string): Promise<string> {
  const headers = { ...LEGACY, authorization: `Bearer ${token}` };
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: token, version: "1" } },
  };
  const r = await post(at, init, headers);
  expect(r.status).toBe(200);
  const sid = r.headers.get("mcp-session-id")!;
  const note = { jsonrpc: "2.0", method: "notifications/initialized" };
  expect((await post(at, note, { ...headers, "mcp-session-id": sid })).status).toBe(202);
  return sid;
}
const ping = (at: string, token: string, sid: string) =>
  post(
    at,
    { jsonrpc: "2.0", id: 2, method: "ping" },
    { ...LEGACY, authorization: `Bearer ${token}`, "mcp-session-id": sid },
  );

test("the session quota (maxSessionsPerClient 2) holds across replicas: a client's third session ends its oldest on every replica", async () => {
  const [r1, r2, r3] = replicas.map((r) => r.url) as [string, string, string];
  const a1 = await session(r1, "quota-a");
  const b1 = await session(r1, "quota-b");
  const a2 = await session(r2, "quota-a");
  for (const at of [r1, r2, r3]) expect((await ping(at, "quota-a", a1)).status).toBe(200); // r3 adopts it from Redis
  const a3 = await session(r3, "quota-a"); // each replica alone holds fewer than 2 of quota-a's sessions
  // a1 ended everywhere (the replicas that held it hear of it on the bus).
  const deadline = Date.now() + 3000;
  let statuses: number[] = [];
  while (Date.now() < deadline) {
    statuses = await Promise.all([r1, r2, r3].map(async (at) => (await ping(at, "quota-a", a1)).status));
    if (statuses.every((s) => s === 404)) break;
    await Bun.sleep(50);
  }
  expect(statuses).toEqual([404, 404, 404]);
  for (const sid of [a2, a3]) expect((await ping(cluster.lb.url, "quota-a", sid)).status).toBe(200);
  expect((await ping(cluster.lb.url, "quota-b", b1)).status).toBe(200); // another client's session is untouched
  // A DELETE gives the place back: a fourth session ends none.
  const del = await fetch(cluster.lb.url, {
    method: "DELETE",
    headers: { authorization: "Bearer quota-a", "mcp-session-id": a2 },
  });
  expect(del.status).toBe(204);
  await session(r1, "quota-a");
  expect((await ping(r2, "quota-a", a3)).status).toBe(200);
});

test(`a session in use on one replica outlives sessionIdleMs (${IDLE_MS} ms) in Redis: another replica still serves it`, async () => {
  const [r1, r2] = replicas.map((r) => r.url) as [string, string];
  const sid = await session(r1, "idle-a");
  for (const end = Date.now() + IDLE_MS + 1000; Date.now() < end; await Bun.sleep(300))
    expect((await ping(r1, "idle-a", sid)).status).toBe(200);
  expect((await ping(r2, "idle-a", sid)).status).toBe(200);
}, 15_000);

test("a tool added live on one replica is announced everywhere but served by that replica only (docs/deploy.md)", async () => {
  const [r1, r2] = replicas.map((r) => r.url) as [string, string];
  const sid = await session(r1, "tools-a");
  const headers = { ...LEGACY, authorization: "Bearer tools-a", "mcp-session-id": sid };
  const call = (at: string, name: string, args = {}) =>
    post(at, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: args } }, headers);
  expect((await call(r1, "add_tool", { name: "only-r1" })).json.result.content[0].text).toBe("added only-r1");
  expect((await call(r1, "only-r1")).json.result.content[0].text).toBe("only-r1");
  const elsewhere = (await call(r2, "only-r1")).json;
  expect(elsewhere.error).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: only-r1") });
});

test("Redis stops: rateLimit counts in each replica, cacheResults runs the tool, both answer at once; a legacy initialize gets 503", async () => {
  await cluster.redis.stop();
  const [r1] = replicas.map((r) => r.url) as [string];
  const call = (name: string, args: object, client: string) =>
    post(
      r1,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name, arguments: args, _meta: { ...META, "io.modelcontextprotocol/clientInfo": { name: client } } },
      },
      modernHeaders("tools/call", name),
    );
  const t = performance.now();
  const first = await call("cached", { q: "down" }, "down-a");
  expect(first.json.result.content[0].text).toBe("r1:down:" + first.json.result.content[0].text.split(":")[2]);
  expect(performance.now() - t).toBeLessThan(5000); // one time limit (2 s) at most
  // The breaker is open: no more waiting. The replica's own bucket still limits.
  const t2 = performance.now();
  const answers = [];
  for (let i = 0; i < LIMIT + 1; i++) answers.push((await call("whoami", {}, "down-b")).json.result);
  expect(performance.now() - t2).toBeLessThan(1000);
  expect(answers.filter((r) => !r.isError).length).toBe(LIMIT);
  expect(answers.at(-1).content[0].text).toMatch(/^Rate limit exceeded/);
  expect(replicas[0]!.stderr).toContain("the shared store failed");
  // A legacy session cannot be kept in Redis now: initialize is refused with 503 once the time limit passes.
  const t3 = performance.now();
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "down-c", version: "1" } },
  };
  const refused = await post(r1, init, LEGACY);
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("5");
  expect(refused.text).toContain("the shared session store (http.redis) did not answer");
  expect(performance.now() - t3).toBeLessThan(5000);
});
