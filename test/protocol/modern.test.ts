// The stateless 2026-07-28 era (issue 3): server/discover, handshake-free requests, probe then initialize (B25), _meta checks (B26).
import { expect, test } from "bun:test";
import { META, spawnPerTest } from "../helpers/proc.ts";
import { assertValidNotification, assertValidResponse } from "../helpers/schema.ts";

const MODERN = "2026-07-28";
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "fixture", version: "1.0.0" } };
const spawn = spawnPerTest();

test("B25 server/discover probe and handshake-free requests", async () => {
  // Input A: one process, no initialize at all.
  const a = spawn();
  const d = await a.request("server/discover", { _meta: META }, "d1", MODERN);
  expect(d.result).toEqual({
    resultType: "complete",
    supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions: "Test fixture",
    ttlMs: 300000,
    cacheScope: "public",
    _meta: SERVER_INFO,
  });
  const list = await a.request("tools/list", { _meta: META }, 2, MODERN);
  expect(list.result.resultType).toBe("complete");
  expect(list.result.ttlMs).toBe(300000);
  expect(list.result.cacheScope).toBe("public");
  expect(list.result._meta).toEqual(SERVER_INFO);
  expect(list.result.tools.map((t: { name: string }) => t.name)).toContain("echo");
  const call = await a.request("tools/call", { name: "echo", arguments: { text: "m" }, _meta: META }, 3, MODERN);
  expect(call.result).toEqual({ content: [{ type: "text", text: "m" }], resultType: "complete", _meta: SERVER_INFO });

  // Input B: the probe, then the legacy fallback in the same process (what real dual-era clients send).
  const b = spawn();
  await b.request("server/discover", { _meta: META }, "d1", MODERN);
  expect((await b.handshake("2025-11-25")).protocolVersion).toBe("2025-11-25");
  const legacy = await b.request("tools/list", undefined, 2, "2025-11-25");
  expect(legacy.result.tools.length).toBeGreaterThan(0);
  expect(legacy.result.resultType).toBeUndefined();
  expect(legacy.result.ttlMs).toBeUndefined();
});

test("B26 unsupported version in _meta", async () => {
  const p = spawn();
  const bad = await p.request(
    "tools/list",
    { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
    5,
    MODERN,
  );
  assertValidNotification(MODERN, "UnsupportedProtocolVersionError", bad);
  expect(bad.error.code).toBe(-32022);
  expect(bad.error.data.requested).toBe("2099-01-01");
  expect(bad.error.data.supported).toContain("2026-07-28");
  const ok = await p.request("tools/list", { _meta: META }, 6, MODERN);
  expect(ok.result.resultType).toBe("complete");
});

test("a missing or malformed clientCapabilities is -32602, checked before the version", async () => {
  const p = spawn();
  const cases = [
    { "io.modelcontextprotocol/protocolVersion": MODERN },
    { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": "all" },
    { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    { "io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": {} },
  ];
  for (const [i, meta] of cases.entries()) {
    const r = await p.request("tools/list", { _meta: meta }, i + 1, MODERN);
    expect(r.error.code).toBe(-32602);
    expect(r.error.message).toContain("io.modelcontextprotocol/");
  }
});

test("a modern ping is -32601 (ping is not part of 2026-07-28); a plain ping is still answered", async () => {
  const p = spawn();
  const r = await p.request("ping", { _meta: META }, 1, MODERN);
  expect(r.error.code).toBe(-32601);
  expect((await p.request("ping", undefined, 2, "2025-11-25")).result).toEqual({});
});

test("modern requests with methods outside the tools-only server get -32601", async () => {
  const p = spawn();
  // prompts and resources: not advertised; logging/setLevel: a legacy method (2026-07-28 asks per request).
  for (const [i, method] of ["prompts/list", "resources/list", "resources/subscribe", "logging/setLevel"].entries()) {
    const r = await p.request(method, { _meta: META }, i + 1, MODERN);
    expect(r.error.code).toBe(-32601);
  }
});

test("modern requests are served after a legacy initialize too, each with its own version's shape", async () => {
  const p = spawn();
  await p.handshake("2024-11-05");
  const modern = await p.request("tools/call", { name: "proto_rich", arguments: {}, _meta: META }, 2, MODERN);
  expect(modern.result.structuredContent).toEqual({ n: 1 });
  expect(modern.result.resultType).toBe("complete");
  const legacy = await p.request("tools/call", { name: "proto_rich", arguments: {} }, 3, "2024-11-05");
  expect(legacy.result.structuredContent).toBeUndefined();
  expect(legacy.result.resultType).toBeUndefined();
  // The legacy session is untouched by the modern request: initialize is still refused.
  expect(
    (
      await p.request(
        "initialize",
        { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        4,
        "2024-11-05",
      )
    ).error.code,
  ).toBe(-32600);
});

test("modern errors for a tools/call: unknown tool -32602; bad arguments are an isError result with resultType", async () => {
  const p = spawn();
  const unknown = await p.request("tools/call", { name: "nope", arguments: {}, _meta: META }, 1, MODERN);
  expect(unknown.error.code).toBe(-32602);
  const bad = await p.request("tools/call", { name: "add", arguments: { a: "1" }, _meta: META }, 2, MODERN);
  expect(bad.result.isError).toBe(true);
  expect(bad.result.resultType).toBe("complete");
  expect(bad.result._meta).toEqual(SERVER_INFO);
});

test("the schema check is strict: a field a version does not define fails validation", () => {
  const msg = (tool: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, result: { tools: [tool] } });
  const base = { name: "x", inputSchema: { type: "object" } };
  expect(() => assertValidResponse("2025-03-26", "tools/list", msg({ ...base, title: "X" }))).toThrow(
    "additionalProperties",
  );
  expect(() => assertValidResponse("2025-06-18", "tools/list", msg({ ...base, title: "X" }))).not.toThrow();
  expect(() => assertValidResponse("2025-06-18", "tools/list", msg({ ...base, icons: [] }))).toThrow(
    "additionalProperties",
  );
  expect(() => assertValidResponse(MODERN, "tools/list", msg(base))).toThrow(); // no resultType / cache hints
});

test("a modern call cut short at shutdown in a legacy-initialized process still gets a modern result", async () => {
  const p = spawn(undefined, { env: { FIXTURE_GRACE_MS: "100" } });
  await p.handshake("2025-06-18");
  p.send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "sleep", arguments: { ms: 30000 }, _meta: META },
  });
  p.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "sleep", arguments: { ms: 30000 } } });
  await p.request("ping", undefined, 4); // messages are dispatched in order: both calls are in flight now
  p.closeStdin();
  const modern = await p.response(2);
  assertValidResponse(MODERN, "tools/call", modern);
  expect(modern.result.isError).toBe(true);
  expect(modern.result.resultType).toBe("complete");
  const legacy = await p.response(3);
  assertValidResponse("2025-06-18", "tools/call", legacy);
  expect(legacy.result.isError).toBe(true);
  expect(legacy.result.resultType).toBeUndefined();
  expect(await p.exited).toBe(0);
});
