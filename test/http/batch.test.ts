// JSON-RPC batches over Streamable HTTP on a session negotiated at 2025-03-26: what is owed an answer
// gets one (a JSON array of the responses only), a batch owed nothing gets 202 with no body.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { assertValidResponse } from "../helpers/schema.ts";
import { HttpProcess, post } from "./helpers.ts";

const V = "2025-03-26";
const JSON_ONLY = { "content-type": "application/json", accept: "application/json" };
const BOTH = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const cancelled = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "t" } };
const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } };
const response = { jsonrpc: "2.0", id: 9, result: {} };
const errorResponse = { jsonrpc: "2.0", id: 10, error: { code: -32601, message: "no" } };

let s: HttpProcess;
let sid: string;
beforeAll(async () => {
  s = await HttpProcess.source("test/fixtures/servers/fixture.ts");
  const r = await post(
    s.url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    BOTH,
  );
  expect(r.json.result.protocolVersion).toBe(V);
  sid = r.headers.get("mcp-session-id")!;
}, 60_000);
afterAll(() => s?.kill());

const batch = (body: unknown[], accept = BOTH) => post(s.url, body, { ...accept, "mcp-session-id": sid });

test("a batch of only notifications and/or responses gets 202 with no body (nothing is owed, as over stdio)", async () => {
  const bodies = [
    [initialized, cancelled],
    [response],
    [errorResponse, response],
    [progress, response, initialized],
    [cancelled],
  ];
  for (const body of bodies) {
    for (const accept of [BOTH, JSON_ONLY]) {
      const r = await batch(body, accept);
      expect({ body, status: r.status, text: r.text }).toEqual({ body, status: 202, text: "" });
    }
  }
  // The session goes on.
  const ping = await batch([{ jsonrpc: "2.0", id: 2, method: "ping" }]);
  expect(ping.status).toBe(200);
  expect(ping.json).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
});

test("a batch mixing requests, notifications and responses is answered with a JSON array of the responses only, in order", async () => {
  const r = await batch([
    initialized,
    { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "add", arguments: { a: 2, b: 3 } } },
    response,
    cancelled,
    { jsonrpc: "2.0", id: 7, method: "tools/list" },
    { jsonrpc: "2.0", id: 8, method: "ping" },
  ]);
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toContain("application/json");
  expect(r.json.map((m: { id: unknown }) => m.id)).toEqual(["a", 7, 8]);
  assertValidResponse(V, "tools/call", r.json[0]);
  expect(r.json[0].result.content).toEqual([{ type: "text", text: "5" }]);
  assertValidResponse(V, "tools/list", r.json[1]);
  assertValidResponse(V, "ping", r.json[2]);
});

test("a batch's answer is 200 whatever element is invalid, first or last (the status does not depend on order)", async () => {
  const bad = { foo: 1 };
  const ping = { jsonrpc: "2.0", id: 3, method: "ping" };
  for (const body of [
    [bad, ping],
    [ping, bad],
    [bad, initialized],
  ]) {
    const r = await batch(body);
    expect({ body, status: r.status }).toEqual({ body, status: 200 });
    expect(Array.isArray(r.json)).toBe(true);
    const errors = r.json.filter((m: { error?: { code: number } }) => m.error);
    expect(errors.map((m: { error: { code: number } }) => m.error.code)).toEqual([-32600]);
    for (const m of r.json) assertValidResponse(V, "ping", m);
  }
});
