// Schemas every client accepts: valibot → JSON Schema rules, raw schemas, definition-time errors, name rules.
import { expect, test } from "bun:test";
import * as v from "valibot";
import Ajv2020 from "ajv/dist/2020";
import { tool, ToolDefinitionError, TOOL_NAME } from "../../src/index.ts";
import { normalizeJsonSchema } from "../../src/schema/json-schema.ts";

const ajv = new Ajv2020({ strict: false });
const run = () => "ok";
const inputOf = (input: v.GenericSchema) =>
  tool({ name: "t", description: "", input: input as never, run }).inputSchema;
const outputOf = (output: v.GenericSchema) => tool({ name: "t", description: "", output, run }).outputSchema!;

/** Every node of a schema, for "at any depth" checks. */
function nodes(x: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(x)) for (const y of x) nodes(y, out);
  else if (typeof x === "object" && x !== null) {
    out.push(x as Record<string, unknown>);
    for (const y of Object.values(x)) nodes(y, out);
  }
  return out;
}
const valid2020 = (s: object) => expect(ajv.validateSchema(s)).toBe(true);

test("no $schema at any depth; the result is valid 2020-12", () => {
  const s = inputOf(v.object({ a: v.object({ b: v.array(v.object({ c: v.string() })) }) }));
  expect(JSON.stringify(s)).not.toContain("$schema");
  valid2020(s);
  const raw = tool({
    name: "r",
    description: "",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { x: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "string" } },
    },
    run,
  }).inputSchema;
  expect(nodes(raw).some((n) => "$schema" in n)).toBe(false);
});

test("shared sub-schemas are inlined: no $ref, $defs or definitions", () => {
  const Point = v.object({ x: v.number(), y: v.number() });
  const s = inputOf(v.object({ from: Point, to: Point }));
  expect(JSON.stringify(s)).not.toMatch(/\$ref|\$defs|definitions/);
  expect(s.properties).toEqual({
    from: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
    to: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
  });
  // A raw schema's non-recursive refs are inlined too (draft-07 "definitions" as well as "$defs").
  const raw = tool({
    name: "r",
    description: "",
    inputSchema: {
      type: "object",
      properties: { p: { $ref: "#/$defs/P" }, q: { $ref: "#/definitions/Q" } },
      $defs: { P: { type: "string" } },
      definitions: { Q: { type: "integer" } },
    } as never,
    run,
  }).inputSchema;
  expect(raw).toEqual({ type: "object", properties: { p: { type: "string" }, q: { type: "integer" } } });
});

test("a recursive v.lazy keeps one root $defs whose refs are local and resolve", () => {
  type Node = { name: string; children: Node[] };
  const Node: v.GenericSchema<Node> = v.object({ name: v.string(), children: v.array(v.lazy(() => Node)) });
  const s = inputOf(v.object({ tree: Node }));
  expect(Object.keys(s.$defs as object)).toHaveLength(1);
  const refs = nodes(s)
    .filter((n) => typeof n.$ref === "string")
    .map((n) => n.$ref as string);
  expect(refs.length).toBeGreaterThan(0);
  for (const r of refs) expect(r).toMatch(/^#\/\$defs\/[^/]+$/);
  for (const r of refs) expect((s.$defs as Record<string, unknown>)[r.slice("#/$defs/".length)]).toBeDefined();
  // Only the root has $defs, and the schema really validates a tree.
  expect(nodes(s).filter((n) => "$defs" in n)).toHaveLength(1);
  valid2020(s);
  const check = ajv.compile(s);
  expect(check({ tree: { name: "a", children: [{ name: "b", children: [] }] } })).toBe(true);
  expect(check({ tree: { name: "a", children: [{ name: 1, children: [] }] } })).toBe(false);
  // Non-recursive definitions next to recursive ones are still inlined.
  const n = normalizeJsonSchema({
    type: "object",
    properties: { a: { $ref: "#/$defs/A" }, l: { $ref: "#/$defs/L" } },
    $defs: { A: { type: "string" }, L: { type: "array", items: { $ref: "#/$defs/L" } } },
  });
  expect(n).toEqual({
    type: "object",
    properties: { a: { type: "string" }, l: { $ref: "#/$defs/L" } },
    $defs: { L: { type: "array", items: { $ref: "#/$defs/L" } } },
  });
});

test("the root is always type object with properties (empty for no arguments)", () => {
  expect(tool({ name: "n", description: "", run }).inputSchema).toEqual({ type: "object", properties: {} });
  expect(inputOf(v.object({}))).toEqual({ type: "object", properties: {} });
  expect(tool({ name: "r", description: "", inputSchema: { type: "object" }, run }).inputSchema).toEqual({
    type: "object",
    properties: {},
  });
  expect(() => inputOf(v.string())).toThrow(/tool "t": the input schema must be an object at its root/);
  expect(() => tool({ name: "r", description: "", inputSchema: { type: "array" }, run })).toThrow(ToolDefinitionError);
});

test("optional and defaulted fields are not required; defaults are advertised", () => {
  const s = inputOf(
    v.object({
      q: v.string(),
      limit: v.optional(v.number(), 10),
      sort: v.optional(v.picklist(["asc", "desc"]), "asc"),
      cursor: v.nullish(v.string()),
      x: v.exactOptional(v.string()),
    }),
  );
  expect(s.required).toEqual(["q"]);
  expect((s.properties as any).limit).toEqual({ type: "number", default: 10 });
  expect((s.properties as any).sort).toEqual({ enum: ["asc", "desc"], type: "string", default: "asc" });
  // An all-optional object has no "required" at all (never an empty list).
  expect("required" in inputOf(v.object({ a: v.optional(v.string()) }))).toBe(false);
  // The output side describes what the server sends: a defaulted field is always there.
  expect(outputOf(v.object({ a: v.optional(v.number(), 1) })).required).toEqual(["a"]);
});

test("enums and literals carry type; tuples use prefixItems", () => {
  const s = inputOf(
    v.object({
      mode: v.picklist(["fast", "slow"]),
      level: v.picklist([1, 2, 3]),
      ratio: v.picklist([0.5, 1]),
      kind: v.literal("x"),
      on: v.literal(true),
      e: v.enum({ A: "a" }),
      t: v.tuple([v.string(), v.number()]),
      r: v.tupleWithRest([v.string()], v.boolean()),
    }),
  );
  const p = s.properties as Record<string, any>;
  expect(p.mode).toEqual({ enum: ["fast", "slow"], type: "string" });
  expect(p.level).toEqual({ enum: [1, 2, 3], type: "integer" });
  expect(p.ratio.type).toBe("number");
  expect(p.kind).toEqual({ const: "x", type: "string" });
  expect(p.on).toEqual({ const: true, type: "boolean" });
  expect(p.e).toEqual({ enum: ["a"], type: "string" });
  expect(p.t).toEqual({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 2 });
  expect(p.r).toMatchObject({ prefixItems: [{ type: "string" }], items: { type: "boolean" } });
  for (const n of nodes(s)) if ("enum" in n || "const" in n) expect(n.type).toBeDefined();
  // A raw draft-07 tuple is translated to 2020-12.
  const raw = tool({
    name: "r",
    description: "",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { t: { type: "array", items: [{ type: "string" }], additionalItems: false }, c: { const: 3 } },
    },
    run,
  }).inputSchema;
  expect(raw.properties).toEqual({
    t: { type: "array", prefixItems: [{ type: "string" }], items: false },
    c: { const: 3, type: "integer" },
  });
});

test("verbatimSchemas: a raw schema is advertised exactly as written, and still validated", async () => {
  const inputSchema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: {
      address: { $anchor: "addressDef", type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
    properties: { address: { $ref: "#/$defs/address" } },
    required: ["address"],
    additionalProperties: false,
  };
  const t = tool({ name: "v", description: "", inputSchema, verbatimSchemas: true, run: (a) => a });
  expect(t.inputSchema).toBe(inputSchema);
  expect(await t({ address: { city: "Oslo" } })).toEqual({ address: { city: "Oslo" } });
  await expect(t({ address: { city: 1 } })).rejects.toThrow(
    "Invalid arguments for tool v:\naddress.city: must be string",
  );
  await expect(t({ address: { city: "x" }, z: 1 })).rejects.toThrow("z: unexpected key (not in the schema)");
  // A draft-07 schema is advertised as written and validated through its 2020-12 translation.
  const draft7 = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: false } },
  };
  const d = tool({ name: "d", description: "", inputSchema: draft7, verbatimSchemas: true, run: (a) => a });
  expect(d.inputSchema).toBe(draft7);
  expect(await d({ pair: ["a", 1] })).toEqual({ pair: ["a", 1] });
  await expect(d({ pair: ["a", 1, 2] })).rejects.toThrow("pair: must NOT have more than 2 items");
  // The definition-time checks still apply.
  expect(() =>
    tool({ name: "x", description: "", inputSchema: { type: "string" }, verbatimSchemas: true, run }),
  ).toThrow(/must be an object at its root/);
});

test("unconvertible schemas fail at definition naming the tool and the field", () => {
  const cases: [v.GenericSchema, RegExp][] = [
    [
      v.object({ when: v.date() }),
      /tool "t": the input schema field "when" cannot be expressed in JSON Schema \(v\.date\(\)\): accept an ISO 8601 string/,
    ],
    [v.object({ items: v.array(v.object({ at: v.date() })) }), /field "items\[\]\.at"/],
    [v.object({ n: v.optional(v.bigint()) }), /field "n" .*\(v\.bigint\(\)\): accept a decimal string/],
    [v.object({ m: v.map(v.string(), v.number()) }), /field "m" .*v\.map\(\).*v\.record/],
    [v.object({ s: v.set(v.string()) }), /field "s" .*v\.set\(\)/],
    [v.object({ f: v.function() }), /field "f"/],
  ];
  for (const [schema, message] of cases) {
    expect(() => inputOf(schema)).toThrow(ToolDefinitionError);
    expect(() => inputOf(schema)).toThrow(message);
  }
  expect(() => outputOf(v.object({ at: v.date() }))).toThrow(/tool "t": the output schema field "at"/);
  // An output whose type a transformation changes cannot be described; pinning the type fixes it.
  expect(() => outputOf(v.object({ n: v.pipe(v.string(), v.transform(Number)) }))).toThrow(
    /output schema field "n" .*\(v\.transform\(\)\): end the pipe with a schema of the result type/,
  );
  expect((outputOf(v.object({ n: v.pipe(v.string(), v.transform(Number), v.number()) })).properties as any).n).toEqual({
    type: "number",
  });
  // Raw schemas: unknown dialect, external or dangling refs.
  expect(() =>
    tool({
      name: "r",
      description: "",
      inputSchema: { $schema: "https://example.com/my-dialect", type: "object" },
      run,
    }),
  ).toThrow(/tool "r": inputSchema: the JSON Schema dialect/);
  expect(() =>
    tool({
      name: "r",
      description: "",
      inputSchema: { type: "object", properties: { a: { $ref: "https://example.com/a.json" } } },
      run,
    }),
  ).toThrow(/is not local/);
  expect(() =>
    tool({
      name: "r",
      description: "",
      inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      run,
    }),
  ).toThrow(/does not resolve/);
});

test("transforms and custom checks are left out of the schema and enforced on the server", async () => {
  const t = tool({
    name: "t",
    description: "",
    input: v.object({
      word: v.pipe(
        v.string(),
        v.trim(),
        v.check((s) => s.length >= 3, "at least 3 letters"),
      ),
      n: v.pipe(v.string(), v.transform(Number), v.minValue(10)),
      even: v.custom<number>((x) => typeof x === "number" && x % 2 === 0, "must be even"),
      id: v.pipe(v.string(), v.brand("Id")),
    }),
    run: (a) => a,
  });
  expect(t.inputSchema.properties).toEqual({
    word: { type: "string" },
    n: { type: "string" },
    even: {},
    id: { type: "string" },
  });
  expect((await t({ word: "  abc ", n: "12", even: 4, id: "x" })) as unknown).toEqual({
    word: "abc",
    n: 12,
    even: 4,
    id: "x",
  });
  await expect(t({ word: "ab", n: "5", even: 3, id: "x" })).rejects.toThrow(
    "Invalid arguments for tool t:\nword: at least 3 letters\nn: Invalid value: Expected >=10 but received 5\neven: must be even",
  );
});

test("tool names must match ^[A-Za-z0-9_-]{1,64}$; title is for display", () => {
  for (const bad of ["get.user", "get user", "a/b", "x".repeat(65), "", "ünï", "a,b"]) {
    expect(TOOL_NAME.test(bad)).toBe(false);
    expect(() => tool({ name: bad, description: "", run })).toThrow(
      `tool name ${JSON.stringify(bad)} is not accepted: use 1-64 characters from A-Z a-z 0-9 _ -`,
    );
  }
  for (const good of ["x".repeat(64), "get_user", "get-user", "A9"])
    expect(tool({ name: good, title: "Get user", description: "", run }).name).toBe(good);
  expect(() => tool({ name: 5 as never, description: "", run })).toThrow(ToolDefinitionError);
});
