// The method table's own answers: method not found, not in this version, capability not advertised, params errors; capabilities derived from the table.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import { Session } from "../../src/server/dispatcher.ts";
import { methodTable, type CapabilitySpec, type MethodSpec } from "../../src/server/method.ts";
import { currentTable } from "../../src/server/register.ts";
import { Registry } from "../../src/server/registry.ts";
import { initLine, META } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";

const registry = new Registry({
  name: "table-test",
  version: "1.0.0",
  tools: [tool({ name: "echo", description: "echo", input: v.object({ text: v.string() }), run: ({ text }) => text })],
});

/** A legacy-only method that exists from 2025-11-25 on, with a params schema. */
const newer: MethodSpec<{ n: number }, Record<string, unknown>> = {
  name: "test/newer",
  eras: ["legacy"],
  versions: ["2025-11-25"],
  params: v.object({ n: v.number() }),
  handle: (p) => ({ doubled: p.n * 2 }),
};
/** A method of a capability the server may or may not advertise. */
const listThings: MethodSpec<unknown, Record<string, unknown>> = {
  name: "things/list",
  eras: ["legacy", "modern"],
  capability: "completions",
  handle: () => ({ things: [] }),
};

function session(advertiseThings: boolean): Session {
  const things: CapabilitySpec = { name: "completions", advertise: () => (advertiseThings ? {} : undefined) };
  // The server's table (the core's and the registered capabilities'), its own completions left out for the test's.
  const t = currentTable();
  const methods = [...t.methods.values()].filter((m) => m.capability !== "completions");
  return new Session(
    registry,
    () => {},
    methodTable(
      [...methods, newer, listThings],
      [...t.notifications.values()],
      [...t.capabilities.filter((c) => c.name !== "completions"), things],
    ),
  );
}
async function send(s: Session, msg: Record<string, unknown> | string): Promise<any> {
  const line = await s.handleLine(typeof msg === "string" ? msg : JSON.stringify({ jsonrpc: "2.0", ...msg }));
  return line === undefined ? undefined : JSON.parse(line);
}

describe("the method table", () => {
  test("a method the table lacks: -32601 in both eras", async () => {
    const s = session(true);
    await send(s, initLine("2025-11-25"));
    const legacy = await send(s, { id: 2, method: "made/up" });
    assertValidResponse("2025-11-25", "made/up", legacy);
    expect(legacy.error).toEqual({ code: -32601, message: "Method not found: made/up" });
    const modern = await send(s, { id: 3, method: "made/up", params: { _meta: META } });
    assertValidResponse("2026-07-28", "made/up", modern);
    expect(modern.error.code).toBe(-32601);
  });

  test("a method not part of the version in force, or of the era: -32601 naming the version", async () => {
    const old = session(true);
    await send(old, initLine("2025-06-18"));
    const r = await send(old, { id: 2, method: "test/newer", params: { n: 2 } });
    assertValidResponse("2025-06-18", "test/newer", r);
    expect(r.error).toEqual({
      code: -32601,
      message: "Method not found: test/newer is not part of protocol version 2025-06-18",
    });
    const s = session(true);
    await send(s, initLine("2025-11-25"));
    expect((await send(s, { id: 2, method: "test/newer", params: { n: 2 } })).result).toEqual({ doubled: 4 });
    const modern = await send(s, { id: 3, method: "test/newer", params: { n: 2, _meta: META } });
    expect(modern.error).toEqual({
      code: -32601,
      message: "Method not found: test/newer is not part of protocol version 2026-07-28",
    });
    // server/discover is a modern entry only.
    expect((await send(s, { id: 4, method: "server/discover" })).error.code).toBe(-32601);
  });

  test("a capability not advertised: its methods are -32601 and initialize/server/discover do not list it", async () => {
    const s = session(false);
    const init = await send(s, initLine("2025-11-25"));
    expect(init.result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
    const r = await send(s, { id: 2, method: "things/list" });
    expect(r.error).toEqual({
      code: -32601,
      message: "Method not found: things/list (this server does not advertise the completions capability)",
    });
    const discover = await send(s, { id: 3, method: "server/discover", params: { _meta: META } });
    expect(discover.result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
  });

  test("an advertised capability comes from the table, in initialize and server/discover alike", async () => {
    const s = session(true);
    const init = await send(s, initLine("2025-11-25"));
    expect(init.result.capabilities).toEqual({ tools: { listChanged: true }, completions: {}, logging: {} });
    expect((await send(s, { id: 2, method: "things/list" })).result).toEqual({ things: [] });
    const discover = await send(s, { id: 3, method: "server/discover", params: { _meta: META } });
    assertValidResponse("2026-07-28", "server/discover", discover);
    expect(discover.result.capabilities).toEqual({ tools: { listChanged: true }, completions: {}, logging: {} });
    // The modern result is completed by the projection: resultType and the server's _meta.
    const things = await send(s, { id: 4, method: "things/list", params: { _meta: META } });
    expect(things.result).toEqual({
      resultType: "complete",
      things: [],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "table-test", version: "1.0.0" } },
    });
  });

  test("params that fail the entry's schema: -32602 with the path, before the handler runs", async () => {
    const s = session(true);
    await send(s, initLine("2025-11-25"));
    const r = await send(s, { id: 2, method: "test/newer", params: { n: "two" } });
    assertValidResponse("2025-11-25", "test/newer", r);
    expect(r.error.code).toBe(-32602);
    expect(r.error.message).toStartWith("Invalid params: n: ");
  });

  test("the table refuses two entries of one name and a method of an unknown capability", () => {
    expect(() => methodTable([newer, newer], [], [])).toThrow("two entries for test/newer");
    expect(() => methodTable([listThings], [], [])).toThrow("needs capability completions");
  });
});

test("errors with id null (the request id could not be read) are validated too, and a malformed one fails", async () => {
  const s = session(true);
  const parse = await send(s, "{not json");
  expect(parse).toEqual({
    jsonrpc: "2.0",
    id: null,
    error: { code: -32700, message: "Parse error: the line is not valid JSON" },
  });
  for (const version of ["2024-11-05", "2025-11-25", "2026-07-28"]) {
    assertValidResponse(version, "?", parse);
    expect(() =>
      assertValidResponse(version, "?", { jsonrpc: "2.0", id: null, error: { code: "-32700", message: "x" } }),
    ).toThrow("violated");
    expect(() =>
      assertValidResponse(version, "?", { jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" }, extra: 1 }),
    ).toThrow("violated");
  }
});
