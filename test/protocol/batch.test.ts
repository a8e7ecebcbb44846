// JSON-RPC batches (issue 3): accepted only on a session negotiated at 2025-03-26; -32600 everywhere else.
import { expect, test } from "bun:test";
import { McpProcess, META, spawnPerTest } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";

const spawn = spawnPerTest();
type Msg = Record<string, any>;
const batches = (p: McpProcess) => p.messages.filter((m) => Array.isArray(m)) as unknown as Msg[][];

test("2025-03-26: a batch is answered with an array, in order, each response valid", async () => {
  const p = spawn();
  await p.handshake("2025-03-26");
  p.send(
    JSON.stringify([
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "sleep", arguments: { ms: 50 } } },
      { jsonrpc: "2.0", id: 3, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
      { jsonrpc: "2.0", id: 4, method: "tools/list" },
      { jsonrpc: "2.0", id: 5, method: "nope" },
    ]),
  );
  const answer = (await p.waitFor((m) => Array.isArray(m))) as unknown as Msg[];
  expect(answer.map((m) => m.id)).toEqual([2, 3, 4, 5]);
  const methods = ["tools/call", "ping", "tools/list", "nope"];
  answer.forEach((m, i) => assertValidResponse("2025-03-26", methods[i]!, m));
  expect(answer[0]!.result.content[0].text).toBe("slept 50");
  expect(answer[1]!.result).toEqual({});
  expect(answer[2]!.result.tools.length).toBeGreaterThan(0);
  expect(answer[3]!.error.code).toBe(-32601);
});

test("2025-03-26: a batch of notifications only gets no answer at all", async () => {
  const p = spawn();
  await p.handshake("2025-03-26");
  p.send(
    JSON.stringify([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
    ]),
  );
  // A ping behind the batch proves the batch was read and answered with nothing.
  expect((await p.request("ping", undefined, 9, "2025-03-26")).result).toEqual({});
  expect(p.messages.map((m) => m.id)).toEqual([1, 9]);
});

test("2025-03-26: initialize inside a batch is refused (-32600) and the rest of the batch is served", async () => {
  const p = spawn();
  await p.handshake("2025-03-26");
  p.send(
    JSON.stringify([
      {
        jsonrpc: "2.0",
        id: 2,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ]),
  );
  const answer = (await p.waitFor((m) => Array.isArray(m))) as unknown as Msg[];
  assertValidResponse("2025-03-26", "initialize", answer[0]!);
  assertValidResponse("2025-03-26", "ping", answer[1]!);
  expect(answer[0]!.error.code).toBe(-32600);
  expect(answer[0]!.error.message).toContain("initialize");
  expect(answer[1]).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
});

test("2025-03-26: an empty batch is -32600", async () => {
  const p = spawn();
  await p.handshake("2025-03-26");
  p.send("[]");
  const r = await p.waitFor((m) => m.id === null);
  expect(r.error.code).toBe(-32600);
});

test("a batch before initialize is -32600: initialize may not be batched and nothing else is open yet", async () => {
  const p = spawn();
  p.send(
    JSON.stringify([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
    ]),
  );
  const r = await p.waitFor((m) => "error" in m);
  expect(r.id).toBeNull();
  expect(r.error.code).toBe(-32600);
  expect(batches(p)).toEqual([]);
  // The process is still usable.
  p.send(
    '{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
  );
  assertValidResponse("2025-03-26", "initialize", await p.response("i"));
});

for (const version of ["2024-11-05", "2025-06-18", "2025-11-25"]) {
  test(`${version}: a batch is -32600 and the session goes on`, async () => {
    const p = spawn();
    await p.handshake(version);
    p.send(JSON.stringify([{ jsonrpc: "2.0", id: 2, method: "ping" }]));
    const r = await p.waitFor((m) => "error" in m);
    expect(r.id).toBeNull();
    expect(r.error.code).toBe(-32600);
    expect(r.error.message).toContain("2025-03-26");
    if (version === "2025-11-25") assertValidResponse(version, "ping", r); // older schemas cannot express an error without an id
    expect(batches(p)).toEqual([]);
    expect((await p.request("ping", undefined, 3, version)).result).toEqual({});
  });
}

test("2026-07-28 (no initialize): a batch of modern requests is -32600", async () => {
  const p = spawn();
  p.send(JSON.stringify([{ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } }]));
  const r = await p.waitFor((m) => "error" in m);
  assertValidResponse("2026-07-28", "tools/list", r);
  expect(r.error.code).toBe(-32600);
  expect(batches(p)).toEqual([]);
});
