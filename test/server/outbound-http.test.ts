// Server → client requests over Streamable HTTP (legacy session): the request goes on the call's SSE stream, the answer comes back as a POST.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { HttpProcess } from "../http/helpers.ts";
import { assertValidNotification, assertValidResponse } from "../helpers/schema.ts";

const V = "2025-11-25";
let server: HttpProcess;
beforeAll(async () => {
  server = await HttpProcess.source("test/fixtures/servers/asks-client.ts");
});
afterAll(() => server.kill());

const post = (body: unknown, sid?: string) =>
  fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      ...(sid ? { "mcp-session-id": sid } : {}),
    },
    body: JSON.stringify(body),
  });

/** Reads SSE `data:` lines from a response body as parsed messages, one at a time. */
function events(res: Response): () => Promise<Record<string, any>> {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = "";
  return async () => {
    for (;;) {
      const end = buf.indexOf("\n\n");
      if (end !== -1) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const data = block.split("\n").find((l) => l.startsWith("data: "));
        if (data) return JSON.parse(data.slice(6));
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended; left: ${buf}`);
      buf += dec.decode(value, { stream: true });
    }
  };
}

test("a tool's ping goes on its call's SSE stream; the client's answer POSTed on the session completes the call", async () => {
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const sid = init.headers.get("mcp-session-id")!;
  expect(sid).toBeTruthy();
  await init.text();
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sid)).text();
  const res = await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", arguments: {} } }, sid);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const next = events(res);
  const ping = await next();
  assertValidNotification(V, "JSONRPCRequest", ping);
  expect(ping.method).toBe("ping");
  expect(ping.id).toStartWith("mcpbin-");
  const answered = await post({ jsonrpc: "2.0", id: ping.id, result: {} }, sid);
  expect(answered.status).toBe(202);
  const r = await next();
  assertValidResponse(V, "tools/call", r);
  expect(r.id).toBe(2);
  expect(r.result.content[0].text).toBe("answered: {}");
});
