// Legacy lifecycle per version (issue 3): initialize, negotiation (B23), ping before initialize (B22), early requests, second initialize.
import { describe, expect, test } from "bun:test";
import { INITED, initLine, spawnPerTest } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";

const LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
const spawn = spawnPerTest();

describe("lifecycle per legacy version", () => {
  for (const version of LEGACY) {
    test(`${version}: initialize, initialized, ping, tools/list, tools/call, then EOF ends the process`, async () => {
      const p = spawn();
      const init = await p.request(
        "initialize",
        { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
        1,
        version,
      );
      expect(init.result.protocolVersion).toBe(version);
      // Exactly what the server has: tools (listChanged by default: addTool and its kin tell the client), and logging, since its
      // tools may log (ctx.log); no resources, prompts or completions.
      expect(init.result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
      expect(init.result.serverInfo).toEqual({ name: "fixture", version: "1.0.0" });
      // instructions only from 2025-03-26 on (mcplite's rule, kept by the issue).
      if (version === "2024-11-05") expect(init.result).not.toHaveProperty("instructions");
      else expect(init.result.instructions).toBe("Test fixture");
      p.send(INITED);
      expect((await p.request("ping", undefined, 2, version)).result).toEqual({});
      const list = await p.request("tools/list", {}, 3, version);
      expect(list.result.tools.map((t: { name: string }) => t.name)).toContain("echo");
      const call = await p.request("tools/call", { name: "echo", arguments: { text: version } }, 4, version);
      expect(call.result).toEqual({ content: [{ type: "text", text: version }] });
      p.closeStdin();
      expect(await p.exited).toBe(0);
      expect(p.messages.length).toBe(4);
    });
  }
});

test("B23 the server answers with a version it supports", async () => {
  const cases: [string, string][] = [
    ...LEGACY.map((v) => [v, v] as [string, string]),
    ["2099-01-01", "2025-11-25"],
    ["1.0", "2025-11-25"],
    // A handshake always opens a legacy session, even when it asks for the stateless revision.
    ["2026-07-28", "2025-11-25"],
  ];
  await Promise.all(
    cases.map(async ([asked, answered]) => {
      const p = spawn();
      p.send(initLine(asked, 1));
      const r = await p.response(1);
      assertValidResponse(answered, "initialize", r);
      expect(r.error).toBeUndefined();
      expect(r.result.protocolVersion).toBe(answered);
    }),
  );
});

test("B22 ping before initialize", async () => {
  const p = spawn();
  expect(await p.request("ping", undefined, "p0", "2025-06-18")).toEqual({ jsonrpc: "2.0", id: "p0", result: {} });
  await p.handshake("2025-06-18");
  expect(await p.request("ping", undefined, 2, "2025-06-18")).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
});

describe("before initialize", () => {
  test("tools/list and tools/call without the _meta claim get -32600 at once, naming initialize and _meta", async () => {
    const p = spawn();
    p.send(INITED); // a lone notifications/initialized opens nothing
    for (const [id, method, params] of [
      [11, "tools/list", {}],
      [12, "tools/call", { name: "echo", arguments: { text: "x" } }],
      [13, "server/discover", {}],
    ] as const) {
      const r = await p.request(method, params, id, "2025-11-25");
      expect(r.result).toBeUndefined();
      expect(r.error.code).toBe(-32600);
      expect(r.error.message).toContain("initialize");
      expect(r.error.message).toContain("_meta");
    }
    // No notification was answered and nothing but the three errors was written.
    expect(p.messages.length).toBe(3);
    // The process is still usable.
    expect((await p.handshake("2025-11-25")).protocolVersion).toBe("2025-11-25");
    expect(
      (await p.request("tools/call", { name: "echo", arguments: { text: "after" } }, 4, "2025-11-25")).result.content[0]
        .text,
    ).toBe("after");
  });

  test("an initialize with broken params is -32602 and a proper one still succeeds afterwards", async () => {
    const p = spawn();
    const bad = await p.request("initialize", undefined, 0, "2025-11-25");
    expect(bad.error.code).toBe(-32602);
    expect((await p.handshake("2025-03-26")).protocolVersion).toBe("2025-03-26");
  });
});

test("a second initialize is refused with -32600 and the session keeps its version", async () => {
  const p = spawn();
  await p.handshake("2025-03-26");
  const again = await p.request(
    "initialize",
    { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    7,
    "2025-03-26",
  );
  expect(again.error.code).toBe(-32600);
  expect(again.error.message).toContain("already initialized at 2025-03-26");
  // Still usable, still 2025-03-26: batches (a 2025-03-26-only feature) are accepted.
  p.send([{ jsonrpc: "2.0", id: 8, method: "ping" }] as never);
  const batch = await p.waitFor((m) => Array.isArray(m));
  expect(batch).toEqual([{ jsonrpc: "2.0", id: 8, result: {} }]);
  assertValidResponse("2025-03-26", "ping", (batch as unknown as Record<string, unknown>[])[0]!);
});

test("serverInfo.title is sent from 2025-06-18 on only", async () => {
  // The fixture has no title; the toolkit example does.
  for (const [version, hasTitle] of [
    ["2025-03-26", false],
    ["2025-06-18", true],
  ] as const) {
    const p = spawn("examples/toolkit/server.ts");
    const init = await p.handshake(version);
    expect("title" in init.serverInfo).toBe(hasTitle);
  }
});

test("initialize with invalid params (protocolVersion not a string or empty, capabilities not an object) is -32602 and the session stays uninitialized", async () => {
  const p = spawn();
  const bad = [
    { protocolVersion: 20251125, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    { protocolVersion: "", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    { protocolVersion: "2025-11-25", capabilities: "all", clientInfo: { name: "t", version: "1" } },
  ];
  for (const [i, params] of bad.entries()) {
    const r = await p.request("initialize", params, 10 + i, "2025-11-25");
    expect(r.error.code).toBe(-32602);
    expect(r.error.message).toContain(
      i === 2 ? '"capabilities" must be an object' : '"protocolVersion" must be a non-empty string',
    );
  }
  // Still uninitialized: a request is refused as before initialize, and a good initialize then succeeds.
  const early = await p.request("tools/list", {}, 20, "2025-11-25");
  expect(early.error.code).toBe(-32600);
  expect((await p.handshake("2025-11-25")).protocolVersion).toBe("2025-11-25");
});
