// Server → client requests over real stdio: a tool asks the client, the client answers (or not), and the call completes.
import { describe, expect, test } from "bun:test";
import { assertValidNotification, assertValidResponse } from "../helpers/schema.ts";
import { META, spawnPerTest, type McpProcess } from "../helpers/proc.ts";

const spawn = spawnPerTest("test/fixtures/servers/asks-client.ts");
const V = "2025-06-18";
const call = (id: number, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "ask", arguments: args },
});
const textOf = (r: Record<string, any>) => r.result.content[0].text as string;

/** Waits for the server's next request to the client (a message with a method and an id), checked against the schema. */
async function serverRequest(p: McpProcess, method: string): Promise<Record<string, any>> {
  const m = await p.waitFor((x) => x.method === method && "id" in x);
  assertValidNotification(V, "JSONRPCRequest", m);
  return m;
}

describe("outbound requests over stdio", () => {
  test("a tool's ping reaches the client with a string id of the server's own; the client's answer completes the call", async () => {
    const p = spawn();
    await p.handshake(V);
    p.send(call(11));
    const ping = await serverRequest(p, "ping");
    expect(typeof ping.id).toBe("string");
    expect(ping.id).toStartWith("mcpbin-");
    // A client may reuse any of its own ids meanwhile: they never collide with the server's.
    const own = await p.request("ping", undefined, 1_000_000, V);
    expect(own.result).toEqual({});
    p.send({ jsonrpc: "2.0", id: ping.id, result: { hello: "from the client" } });
    const r = await p.response(11);
    assertValidResponse(V, "tools/call", r);
    expect(textOf(r)).toBe('answered: {"hello":"from the client"}');
  });

  test("ids are unique per connection; an error answer is a typed error with the client's code", async () => {
    const p = spawn();
    await p.handshake(V);
    p.send(call(11, { method: "roots/list" }));
    const first = await serverRequest(p, "roots/list");
    p.send({ jsonrpc: "2.0", id: first.id, error: { code: -32601, message: "no roots here" } });
    const r = await p.response(11);
    assertValidResponse(V, "tools/call", r);
    expect(textOf(r)).toStartWith("rpc -32601 no roots here: ");
    p.send(call(12));
    const second = await serverRequest(p, "ping");
    expect(second.id).not.toBe(first.id);
    p.send({ jsonrpc: "2.0", id: second.id, result: {} });
    expect(textOf(await p.response(12))).toBe("answered: {}");
  });

  test("no answer in time: notifications/cancelled goes to the client, the tool gets a timeout, a late answer is dropped", async () => {
    const p = spawn();
    await p.handshake(V);
    p.send(call(11, { timeoutMs: 200 }));
    const ping = await serverRequest(p, "ping");
    const cancelled = await p.waitFor((m) => m.method === "notifications/cancelled");
    assertValidNotification(V, "CancelledNotification", cancelled);
    expect(cancelled.params.requestId).toBe(ping.id);
    const r = await p.response(11);
    expect(textOf(r)).toStartWith("timeout: ping: no answer from the client within 200 ms");
    // The late answer matches nothing pending; the session goes on.
    p.send({ jsonrpc: "2.0", id: ping.id, result: {} });
    p.send({ jsonrpc: "2.0", id: "never-asked", result: {} });
    expect((await p.request("ping", undefined, 2, V)).result).toEqual({});
    expect(p.stderr).not.toContain("internal error");
  });

  test("the client cancels the tool call: the server cancels its own request too, and the call gets no response", async () => {
    const p = spawn();
    await p.handshake(V);
    p.send(call(11));
    const ping = await serverRequest(p, "ping");
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11, reason: "changed my mind" } });
    const cancelled = await p.waitFor((m) => m.method === "notifications/cancelled");
    expect(cancelled.params.requestId).toBe(ping.id);
    // Positive marker after the thing that must not happen: a response to a later request.
    expect((await p.request("ping", undefined, 3, V)).result).toEqual({});
    expect(p.messages.some((m) => m.id === 11)).toBe(false);
  });

  test("a 2026-07-28 request cannot ask the client (the server writes no requests in that era)", async () => {
    const p = spawn();
    const r = await p.request("tools/call", { name: "ask", arguments: {}, _meta: META }, 1, "2026-07-28");
    expect(textOf(r)).toStartWith("unavailable: ping: ");
    expect(p.messages.some((m) => m.method === "ping")).toBe(false);
  });

  test("stdin closes while the server waits for the client: the request fails at once (closed) and the call is answered", async () => {
    const p = spawn();
    await p.handshake(V);
    p.send(call(11));
    await serverRequest(p, "ping");
    p.closeStdin();
    const r = await p.response(11);
    expect(textOf(r)).toStartWith("closed: ping: the connection closed before the client answered");
    expect(await p.exited).toBe(0);
  });
});
