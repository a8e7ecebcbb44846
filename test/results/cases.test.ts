// Handed cases B29–B45 (../shared/cases/real-world.md) against the shared fixture, in both eras: legacy
// (initialize at 2025-06-18 and 2025-11-25) and modern (2026-07-28, params._meta); every response is
// validated against the official schema of its version.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { McpProcess, META } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";

const FIXTURE = "test/fixtures/servers/fixture.ts";
const MODERN = "2026-07-28";
const ERAS = ["2025-06-18", "2025-11-25", MODERN] as const;
type Era = (typeof ERAS)[number];
type Msg = Record<string, any>;

const procs = new Map<Era, McpProcess>();
let nextId = 1000;
beforeAll(async () => {
  await Promise.all(
    ERAS.map(async (era) => {
      const p = McpProcess.source(FIXTURE);
      procs.set(era, p);
      if (era !== MODERN) await p.handshake(era);
    }),
  );
}, 60_000); // a hook's default limit is 5 s; cold starts on a busy 2-core machine can take longer
afterAll(() => {
  for (const p of procs.values()) p.kill();
});

/** A request in the era's own form (modern: the `_meta` claim in params), its response schema-checked. */
function req(
  era: Era,
  method: string,
  params: Record<string, unknown> | undefined,
  id: number | string = nextId++,
): Promise<Msg> {
  const body = era === MODERN ? { ...params, _meta: META } : params;
  return procs.get(era)!.request(method, body, id, era);
}
const call = async (era: Era, name: string, args?: unknown) =>
  (await req(era, "tools/call", args === undefined ? { name } : { name, arguments: args })).result;
const tools = async (era: Era) =>
  new Map<string, Msg>((await req(era, "tools/list", {})).result.tools.map((t: Msg) => [t.name, t]));

/** Every node of a schema (any depth). */
function nodes(x: unknown, out: Msg[] = []): Msg[] {
  if (Array.isArray(x)) for (const y of x) nodes(y, out);
  else if (typeof x === "object" && x !== null) {
    out.push(x as Msg);
    for (const y of Object.values(x)) nodes(y, out);
  }
  return out;
}

for (const era of ERAS) {
  describe(era, () => {
    test("B29 unknown tool name is a protocol error (-32602), not a result", async () => {
      const r = await req(era, "tools/call", { name: "does_not_exist", arguments: {} });
      expect(r.result).toBeUndefined();
      expect(r.error.code).toBe(-32602);
      expect(r.error.message).toBe("Unknown tool: does_not_exist");
    });

    test("B30 argument validation failures are isError results naming each problem; the handler never runs", async () => {
      const wrong = await call(era, "add", { a: "1" });
      expect(wrong.isError).toBe(true);
      expect(wrong.content).toEqual([
        {
          type: "text",
          text: 'Invalid arguments for tool add:\na: Invalid type: Expected number but received "1"\nb: required',
        },
      ]);
      const extra = await call(era, "add", { a: 1, b: 2, c: 3 });
      expect(extra.isError).toBe(true);
      expect(extra.content[0].text).toBe("Invalid arguments for tool add:\nc: unexpected key (not in the schema)");
      expect("structuredContent" in extra).toBe(false);
      // The same tool with good arguments does run.
      expect((await call(era, "add", { a: 1, b: 2 })).content[0].text).toBe("3");
    });

    test("B31 null or malformed params/arguments: null arguments are {}, malformed ones -32602, never -32603", async () => {
      expect((await call(era, "noargs", null)).content).toEqual([{ type: "text", text: "ok" }]);
      expect((await call(era, "noargs")).content).toEqual([{ type: "text", text: "ok" }]);
      const missing = await call(era, "echo", null);
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toBe("Invalid arguments for tool echo:\ntext: required");
      const bad: Record<string, unknown>[] = [
        {},
        { name: 42 },
        { name: "echo", arguments: "text" },
        { name: "echo", arguments: [1] },
      ];
      for (const params of bad) {
        const r = await req(era, "tools/call", params);
        expect(r.error?.code).toBe(-32602);
      }
      if (era !== MODERN) {
        // Without params there is no _meta claim, so these two only exist in the legacy era.
        for (const params of [undefined, null]) {
          const id = nextId++;
          procs
            .get(era)!
            .send({ jsonrpc: "2.0", id, method: "tools/call", ...(params === undefined ? {} : { params }) });
          const r = await procs.get(era)!.response(id);
          assertValidResponse(era, "tools/call", r);
          expect(r.error.code).toBe(-32602);
        }
      }
      // The session goes on.
      expect((await call(era, "echo", { text: "still here" })).content[0].text).toBe("still here");
    });

    test("B32 no $schema key at any depth; the schemas are valid 2020-12", async () => {
      const Ajv2020 = (await import("ajv/dist/2020")).default;
      const ajv = new Ajv2020({ strict: false });
      for (const t of (await tools(era)).values()) {
        for (const s of [t.inputSchema, t.outputSchema].filter(Boolean)) {
          expect(nodes(s).some((n) => "$schema" in n)).toBe(false);
          expect(ajv.validateSchema(s)).toBe(true);
        }
      }
    });

    test("B33 no $ref/$defs for shared sub-schemas: both points inlined", async () => {
      const s = (await tools(era)).get("segment")!.inputSchema;
      expect(JSON.stringify(s)).not.toMatch(/\$ref|\$defs|definitions/);
      const point = {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" } },
        required: ["x", "y"],
      };
      expect(s).toEqual({ type: "object", properties: { from: point, to: point }, required: ["from", "to"] });
      expect((await call(era, "segment", { from: { x: 0, y: 0 }, to: { x: 3, y: 4 } })).content[0].text).toBe("5");
    });

    test("B35 tools without parameters advertise an object with empty properties; all four calls succeed", async () => {
      const list = await tools(era);
      for (const name of ["noargs", "noargs2"]) {
        expect(list.get(name)!.inputSchema).toEqual({ type: "object", properties: {} });
        expect((await call(era, name)).content).toEqual([{ type: "text", text: "ok" }]);
        expect((await call(era, name, {})).content).toEqual([{ type: "text", text: "ok" }]);
      }
    });

    test("B36 optional fields with defaults are not required; the handler gets the defaults", async () => {
      const s = (await tools(era)).get("search")!.inputSchema;
      expect(s.required).toEqual(["query"]);
      expect(s.properties.limit).toEqual({ type: "integer", default: 10 });
      expect(s.properties.sort).toEqual({ enum: ["asc", "desc"], type: "string", default: "asc" });
      const r = await call(era, "search", { query: "q" });
      expect(r.isError).toBeUndefined();
      expect(JSON.parse(r.content[0].text)).toEqual({ query: "q", limit: 10, sort: "asc" });
    });

    test("B37 enum and literal properties carry type", async () => {
      const s = (await tools(era)).get("fmt")!.inputSchema;
      expect(s.properties).toEqual({
        mode: { enum: ["fast", "slow"], type: "string" },
        level: { enum: [1, 2, 3], type: "integer" },
        kind: { const: "x", type: "string" },
      });
      for (const t of (await tools(era)).values()) {
        for (const n of nodes([t.inputSchema, t.outputSchema]))
          if ("enum" in n || "const" in n) expect(n.type).toBeDefined();
      }
    });

    test("B40 output schema: structured result plus its text copy, checked on the server", async () => {
      const w = (await tools(era)).get("weather")!;
      expect(w.outputSchema).toEqual({
        type: "object",
        properties: { temperature: { type: "number" }, unit: { enum: ["C", "F"], type: "string" } },
        required: ["temperature", "unit"],
      });
      const ok = await call(era, "weather", { city: "ok" });
      expect(ok.structuredContent).toEqual({ temperature: 21.5, unit: "C" });
      expect(ok.content).toHaveLength(1);
      expect(JSON.parse(ok.content[0].text)).toEqual({ temperature: 21.5, unit: "C" });
      expect(ok.isError).toBeUndefined();
      const bad = await call(era, "weather", { city: "bad" });
      expect(bad.isError).toBe(true);
      expect("structuredContent" in bad).toBe(false);
      expect(bad.content[0].text).toBe(
        'Tool weather returned structured content that does not match its output schema:\ntemperature: Invalid type: Expected number but received "hot"\nunit: required',
      );
    });

    test("B43 values JSON cannot carry: strict JSON with the preferred encodings; the session goes on", async () => {
      const p = procs.get(era)!;
      const before = p.lines.length;
      const r = await call(era, "stats");
      const line = p.lines.slice(before).find((l) => l.includes('"content"'))!;
      expect(line).not.toMatch(/NaN|Infinity/);
      expect(r.isError).toBeUndefined();
      expect(JSON.parse(r.content[0].text)).toEqual({
        count: "18446744073709551616",
        ratio: null,
        max: null,
        when: "1970-01-01T00:00:00.000Z",
      });
      expect(r.content[0].text).not.toContain("note");
      if (era === MODERN) {
        // 2026-07-28 has no ping: the next modern request is answered.
        expect((await req(era, "tools/list", {})).result.resultType).toBe("complete");
      } else {
        const pong = await req(era, "ping", undefined);
        expect(pong.result).toEqual({});
      }
    });

    test("B44 string results are not encoded twice; objects once", async () => {
      const p = procs.get(era)!;
      const before = p.lines.length;
      const lines = await call(era, "lines");
      expect(lines.content).toEqual([{ type: "text", text: 'line1\nline2\t"q"' }]);
      // The message itself is one line: the newline is escaped inside it.
      const raw = p.lines.slice(before).find((l) => l.includes("line1"))!;
      expect(raw).toContain('"text":"line1\\nline2\\t\\"q\\""');
      expect((await call(era, "obj")).content).toEqual([{ type: "text", text: '{"a":1}' }]);
    });

    test("B45 image content carries plain base64, from a data URL or raw base64", async () => {
      for (const name of ["snap", "snap2"]) {
        const r = await call(era, name);
        expect(r.content).toEqual([{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }]);
        expect(r.content[0].data).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
      }
    });
  });
}
