// Tools that ask, legacy eras (issue 16), by raw lines: the compiled ask fixture's elicitation requests at
// 2025-06-18 and 2025-03-26, each version's request shape and capability rule, validated against its schema.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { compileFixture, McpProcess, INITED } from "../helpers/proc.ts";
import { assertValidRequest, assertValidResponse } from "../helpers/schema.ts";

let bin: string;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/ask.ts", "ask-fixture-raw");
}, 60_000);
afterAll(async () => {
  for (const c of closers) await Promise.resolve(c()).catch(() => {});
});

test("raw lines at 2025-06-18 and 2025-03-26: each version's request shape and capability rule", async () => {
  const p = new McpProcess([bin]);
  closers.push(() => p.kill());
  p.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { elicitation: {} },
        clientInfo: { name: "raw", version: "1" },
      },
    }),
  );
  await p.response(1);
  p.send(INITED);
  p.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "profile", arguments: {} } }));
  const ask = await p.waitFor((m) => m.method === "elicitation/create");
  assertValidRequest("2025-06-18", "ElicitRequest", ask);
  // 2025-06-18: no mode, titled options as enumNames, defaults only on booleans.
  expect(ask.params.mode).toBeUndefined();
  expect(ask.params.requestedSchema.properties.color).toEqual({
    type: "string",
    enum: ["r", "g"],
    enumNames: ["Red", "Green"],
  });
  expect(ask.params.requestedSchema.properties.age).toEqual({ type: "integer", minimum: 0 });
  expect(ask.params.requestedSchema.properties.newsletter).toEqual({ type: "boolean", default: false });
  p.send(
    JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { name: "Bo", color: "g" } } }),
  );
  const r = await p.response(2);
  assertValidResponse("2025-06-18", "tools/call", r);
  expect(r.result.structuredContent).toEqual({
    action: "accept",
    content: { name: "Bo", age: 30, color: "g", newsletter: false },
  });
  // A client error answer becomes a clear isError.
  p.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "profile", arguments: {} } }));
  const ask2 = await p.waitFor((m) => m.method === "elicitation/create" && m.id !== ask.id);
  p.send(
    JSON.stringify({ jsonrpc: "2.0", id: ask2.id, error: { code: -32600, message: "the user closed the window" } }),
  );
  const r3 = await p.response(3);
  expect(r3.result.content[0].text).toBe(
    "elicitation/create: the client answered with error -32600: the user closed the window",
  );
  // URL mode needs 2025-11-25.
  p.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "login", arguments: {} } }));
  expect((await p.response(4)).result.content[0].text).toBe(
    "the client does not support URL elicitation (protocol version 2025-06-18 has none; it needs 2025-11-25 or later)",
  );

  const q = new McpProcess([bin]);
  closers.push(() => q.kill());
  q.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-03-26",
        capabilities: { elicitation: {}, sampling: {} },
        clientInfo: { name: "raw", version: "1" },
      },
    }),
  );
  await q.response(1);
  q.send(INITED);
  q.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "confirm_delete", arguments: { path: "/p" } },
    }),
  );
  const old = await q.response(2);
  assertValidResponse("2025-03-26", "tools/call", old);
  expect(old.result.content[0].text).toBe(
    "the client does not support elicitation (protocol version 2025-03-26 has none; it needs 2025-06-18 or later)",
  );
  q.send(
    JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "rude_sample", arguments: {} } }),
  );
  const s = await q.waitFor((m) => m.method === "sampling/createMessage");
  assertValidRequest("2025-03-26", "CreateMessageRequest", s);
  q.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: s.id,
      result: { role: "assistant", content: { type: "text", text: "hi" }, model: "old-model" },
    }),
  );
  expect((await q.response(3)).result.content).toEqual([{ type: "text", text: "old-model" }]);
});
