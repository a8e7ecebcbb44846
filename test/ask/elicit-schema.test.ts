// valibot object schema → elicitation requestedSchema per version, checked against each version's official schema.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { elicitation } from "../../src/ask/elicit-schema.ts";
import { ElicitSchemaError } from "../../src/ask/errors.ts";
import { assertValid } from "../helpers/schema.ts";

const full = v.object({
  name: v.optional(
    v.pipe(v.string(), v.minLength(2), v.maxLength(20), v.title("Name"), v.description("Your name")),
    "John Doe",
  ),
  email: v.pipe(v.string(), v.email()),
  site: v.optional(v.pipe(v.string(), v.url())),
  born: v.optional(v.pipe(v.string(), v.isoDate())),
  at: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(150)), 30),
  score: v.optional(v.pipe(v.number(), v.minValue(0)), 95.5),
  verified: v.optional(v.boolean(), true),
  status: v.optional(v.picklist(["active", "inactive", "pending"]), "active"),
  color: v.union([v.pipe(v.literal("#FF0000"), v.title("Red")), v.pipe(v.literal("#00FF00"), v.title("Green"))]),
  legacy: v.optional(v.pipe(v.picklist(["opt1", "opt2"]), v.metadata({ enumNames: ["Option One", "Option Two"] }))),
});
const multi = v.object({
  tags: v.optional(v.pipe(v.array(v.picklist(["a", "b", "c"])), v.minLength(1), v.maxLength(2)), ["a"]),
  picks: v.optional(
    v.array(v.union([v.pipe(v.literal("v1"), v.title("First")), v.pipe(v.literal("v2"), v.title("Second"))])),
  ),
});

function params(version: string, requestedSchema: Record<string, unknown>) {
  return { method: "elicitation/create", params: { message: "m", requestedSchema } };
}

test("2025-11-25 and 2026-07-28: every kind, with titles, multi-select and defaults; valid against the official schema", () => {
  const form = elicitation(full);
  for (const version of ["2025-11-25", "2026-07-28"]) {
    const s = form.requestedSchema(version);
    const p = s.properties as Record<string, any>;
    expect(p.name).toEqual({
      type: "string",
      title: "Name",
      description: "Your name",
      minLength: 2,
      maxLength: 20,
      default: "John Doe",
    });
    expect(p.email).toEqual({ type: "string", format: "email" });
    expect(p.site.format).toBe("uri");
    expect(p.born.format).toBe("date");
    expect(p.at.format).toBe("date-time");
    expect(p.age).toEqual({ type: "integer", minimum: 0, maximum: 150, default: 30 });
    expect(p.score).toEqual({ type: "number", minimum: 0, default: 95.5 });
    expect(p.verified).toEqual({ type: "boolean", default: true });
    expect(p.status).toEqual({ type: "string", enum: ["active", "inactive", "pending"], default: "active" });
    expect(p.color).toEqual({
      type: "string",
      oneOf: [
        { const: "#FF0000", title: "Red" },
        { const: "#00FF00", title: "Green" },
      ],
    });
    expect(p.legacy).toEqual({ type: "string", enum: ["opt1", "opt2"], enumNames: ["Option One", "Option Two"] });
    expect(s.required).toEqual(["email", "color"]);
    assertValid(
      version,
      "ElicitRequest",
      version === "2025-11-25" ? { jsonrpc: "2.0", id: 1, ...params(version, s) } : params(version, s),
    );
    const m = elicitation(multi).requestedSchema(version);
    expect((m.properties as any).tags).toEqual({
      type: "array",
      items: { type: "string", enum: ["a", "b", "c"] },
      minItems: 1,
      maxItems: 2,
      default: ["a"],
    });
    expect((m.properties as any).picks).toEqual({
      type: "array",
      items: {
        anyOf: [
          { const: "v1", title: "First" },
          { const: "v2", title: "Second" },
        ],
      },
    });
    assertValid(
      version,
      "ElicitRequest",
      version === "2025-11-25" ? { jsonrpc: "2.0", id: 1, ...params(version, m) } : params(version, m),
    );
  }
});

test("2025-06-18: titled enums as enumNames, defaults only on booleans, multi-select refused; valid against its schema", () => {
  const s = elicitation(full).requestedSchema("2025-06-18");
  const p = s.properties as Record<string, any>;
  expect(p.name.default).toBeUndefined();
  expect(p.age).toEqual({ type: "integer", minimum: 0, maximum: 150 });
  expect(p.verified).toEqual({ type: "boolean", default: true });
  expect(p.color).toEqual({ type: "string", enum: ["#FF0000", "#00FF00"], enumNames: ["Red", "Green"] });
  expect(p.status).toEqual({ type: "string", enum: ["active", "inactive", "pending"] });
  assertValid("2025-06-18", "ElicitRequest", params("2025-06-18", s));
  expect(() => elicitation(multi).requestedSchema("2025-06-18")).toThrow(
    /"tags": a multi-select \(array\) needs protocol version 2025-11-25/,
  );
});

test("the answer is parsed with the same schema: defaults applied, mismatches named", () => {
  const form = elicitation(full);
  const ok = form.parse({ email: "a@b.co", color: "#FF0000" });
  expect(ok).toEqual({
    ok: true,
    value: {
      name: "John Doe",
      email: "a@b.co",
      age: 30,
      score: 95.5,
      verified: true,
      status: "active",
      color: "#FF0000",
    } as any,
  });
  const bad = form.parse({ email: "nope", color: "#000000", age: 200 });
  expect(bad.ok).toBe(false);
  if (!bad.ok) {
    expect(bad.issues.some((l) => l.startsWith("email:"))).toBe(true);
    expect(bad.issues.some((l) => l.startsWith("color:"))).toBe(true);
    expect(bad.issues.some((l) => l.startsWith("age:"))).toBe(true);
  }
});

test("shapes elicitation cannot carry are refused with the field and what is allowed", () => {
  const cases: [v.ObjectSchema<any, any>, RegExp][] = [
    [
      v.object({ nested: v.object({ a: v.string() }) }),
      /field "nested": type "object" is not allowed; allowed: string/,
    ],
    [v.object({ list: v.array(v.string()) }), /field "list": an array must be of a picklist/],
    [v.object({ when: v.date() }), /field "when": this kind of schema cannot be described/],
    [v.object({ maybe: v.nullable(v.string()) }), /field "maybe"/],
    [
      v.object({ ip: v.pipe(v.string(), v.ipv4()) }),
      /field "ip": format "ipv4" is not one of email, uri, date, date-time/,
    ],
    [v.object({ n: v.picklist([1, 2] as any) }), /field "n"/],
  ];
  for (const [schema, message] of cases) {
    expect(() => elicitation(schema)).toThrow(ElicitSchemaError);
    expect(() => elicitation(schema)).toThrow(message);
  }
  expect(() => elicitation(v.string() as any)).toThrow(
    /needs a valibot object schema \(v\.object\(\{\.\.\.\}\)\), not v\.string/,
  );
});

test("v.regex is left out of the requested schema and enforced on the answer", () => {
  const form = elicitation(v.object({ code: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)) }));
  expect(form.requestedSchema("2025-11-25")).toEqual({
    type: "object",
    properties: { code: { type: "string" } },
    required: ["code"],
  });
  expect(form.parse({ code: "abc" }).ok).toBe(false);
  expect(form.parse({ code: "ABC" }).ok).toBe(true);
});
