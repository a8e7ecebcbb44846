// An abandoned 2026-07-28 round silences no one: a client that walks away from an input_required round leaves
// its upstream call parked (it is released after a while), and meanwhile an older-protocol client's call on the
// same stdio upstream still gets the log messages its call sends. Over `mcpbin proxy --http`, raw HTTP, a
// hand-written upstream (test/fixtures/upstreams/faults.ts: "ask" elicits and waits; "log" logs, then answers).
import { expect, setDefaultTimeout, test } from "bun:test";
import { HttpProcess, META, modernHeaders } from "../http/helpers.ts";
import { assertValidNotification } from "../helpers/schema.ts";
import { faultsProxy, legacySession, messagesOf } from "./faults-proxy.ts";

setDefaultTimeout(60_000);
const proxy = faultsProxy();

test("a 2026-07-28 client walks away from an input_required round; a legacy client's call still gets its log messages", async () => {
  // The 2026-07-28 client: its call asks for input, and it never comes back.
  const meta = { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  const r = await fetch(proxy().url, {
    method: "POST",
    headers: modernHeaders("tools/call", "ask"),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask", arguments: {}, _meta: meta },
    }),
  });
  expect((await r.json()).result.resultType).toBe("input_required");

  // The legacy client: asks for log messages, calls the tool that logs.
  const post = await legacySession(proxy().url);
  await post({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } });
  const messages = messagesOf(
    await post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "log", arguments: { text: "hello" } } }),
  );
  const log = messages.find((m) => m.method === "notifications/message");
  expect(log?.params.data).toBe("log: hello");
  assertValidNotification("2025-06-18", "LoggingMessageNotification", log);
  expect(messages.at(-1).result.content[0].text).toBe("logged hello");
});

test("a round whose client walks away is released after askTimeoutMs: the upstream call is cancelled, not held for 10 minutes", async () => {
  const front = await HttpProcess.source("test/fixtures/servers/front-faults.ts");
  try {
    const meta = { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const r = await fetch(front.url, {
      method: "POST",
      headers: modernHeaders("tools/call", "ask"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "ask", arguments: {}, _meta: meta },
      }),
    });
    expect((await r.json()).result.resultType).toBe("input_required");
    const t0 = performance.now();
    await front.waitForStderr(/\[up\] cancelled /, 10_000);
    expect(performance.now() - t0).toBeLessThan(5000);
  } finally {
    front.kill();
  }
});
