// subscriptions/listen over Streamable HTTP (2026-07-28): a long-lived SSE response that acknowledges first and carries the tagged notifications; closing it ends the subscription.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { HttpProcess, META, MODERN, modernHeaders, post } from "./helpers.ts";
import { assertValidNotification } from "../helpers/schema.ts";

let server: HttpProcess;
beforeAll(async () => {
  server = await HttpProcess.source("test/fixtures/servers/content.ts");
}, 60_000);
afterAll(() => server?.kill());

test("the listen stream acknowledges, then carries resources/updated for a change made by another request; closing it stops delivery", async () => {
  const abort = new AbortController();
  const r = await fetch(server.url, {
    method: "POST",
    headers: modernHeaders("subscriptions/listen"),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: "L",
      method: "subscriptions/listen",
      params: { notifications: { resourceSubscriptions: ["live://counter"] }, _meta: META },
    }),
    signal: abort.signal,
  });
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toContain("text/event-stream");
  const reader = r.body!.getReader();
  const dec = new TextDecoder();
  let buf = "";
  const next = async (): Promise<any> => {
    for (;;) {
      const i = buf.indexOf("\n\n");
      if (i !== -1) {
        const ev = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = ev
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trimStart())
          .join("\n");
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("stream ended");
      buf += dec.decode(value, { stream: true });
    }
  };
  const ack = await next();
  assertValidNotification(MODERN, "SubscriptionsAcknowledgedNotification", ack);
  expect(ack.params.notifications).toEqual({ resourceSubscriptions: ["live://counter"] });
  const call = await post(
    server.url,
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "touch", arguments: {}, _meta: META } },
    modernHeaders("tools/call", "touch"),
  );
  expect(call.status).toBe(200);
  const updated = await next();
  assertValidNotification(MODERN, "ResourceUpdatedNotification", updated);
  expect(updated.params).toEqual({ uri: "live://counter", _meta: { "io.modelcontextprotocol/subscriptionId": "L" } });
  abort.abort();
  // The server goes on serving after the stream is gone.
  const again = await post(
    server.url,
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "touch", arguments: {}, _meta: META } },
    modernHeaders("tools/call", "touch"),
  );
  expect(again.json.result.content[0].text).toBe("touched 2");
});
