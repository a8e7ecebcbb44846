// validateWith's fast path for plain valibot objects of strings, numbers and booleans gives exactly what
// valibot's safeParse gives (same output object, same keys in the same order, same issues), over schemas of
// that shape and the ones next to it that must go to valibot (pipes, defaults, fallbacks, other objects).
import { expect, test } from "bun:test";
import * as v from "valibot";
import { validateWith } from "../../src/tools/validate.ts";

const SCHEMAS: Record<string, v.GenericSchema> = {
  numbers: v.object({ x: v.number(), y: v.number() }),
  text: v.object({ text: v.string() }),
  mixed: v.object({ a: v.string(), n: v.number(), b: v.boolean(), o: v.optional(v.string()) }),
  empty: v.object({}),
  withMessage: v.object({ x: v.number("x must be a number") }, "an object please"),
  piped: v.object({ x: v.pipe(v.number(), v.minValue(10)) }),
  pipedObject: v.pipe(
    v.object({ x: v.number() }),
    v.transform((o) => ({ ...o, extra: 1 })),
  ),
  optionalDefault: v.object({ x: v.optional(v.number(), 7) }),
  fallback: v.object({ x: v.fallback(v.number(), 3) }),
  optionalFallback: v.object({ x: v.fallback(v.optional(v.number()), 5) }),
  optionalPiped: v.object({ s: v.optional(v.pipe(v.string(), v.minLength(2))) }),
  nested: v.object({ p: v.object({ x: v.number() }) }),
  strict: v.strictObject({ x: v.number() }),
  loose: v.looseObject({ x: v.number() }),
  protoKey: v.object({ toString: v.string() }),
};

const INPUTS: unknown[] = [
  { x: 1, y: 2 },
  { y: 2, x: 1, z: "extra" },
  { x: 1 },
  { x: "1", y: 2 },
  { x: Number.NaN, y: 1 },
  { x: Infinity, y: -Infinity },
  { text: "hello" },
  { text: "é\ud800" },
  { text: 5 },
  { a: "a", n: 1, b: false },
  { a: "a", n: 1, b: false, o: "o" },
  { a: "a", n: 1, b: false, o: undefined },
  { a: "a", n: 1, b: "false" },
  { a: "a", n: 1, b: true, o: 3 },
  { s: "x" },
  { s: "xyz" },
  { p: { x: 1 } },
  { toString: "s" },
  {},
  [],
  null,
  "text",
  42,
];

test("the fast path and valibot agree on every schema and input", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    for (const input of INPUTS) {
      const r = v.safeParse(schema, input);
      const got = validateWith(schema, input, "input");
      const label = `${name} ← ${JSON.stringify(input)}`;
      if (r.success) {
        expect(got.ok, label).toBe(true);
        const value = (got as { value: unknown }).value;
        expect(value, label).toStrictEqual(r.output);
        if (typeof value === "object" && value !== null) {
          expect(Object.keys(value), label).toEqual(Object.keys(r.output as object));
          // A new object, as valibot's own output is (the tool may change it without touching the request).
          if (typeof input === "object" && input !== null && !Array.isArray(input) && name !== "loose")
            expect(value === input, label).toBe(false);
        }
      } else {
        expect(got.ok, label).toBe(false);
        expect((got as { issues: string[] }).issues.length, label).toBe(r.issues.length);
      }
    }
  }
});

test("a schema seen twice keeps its answer (the plan is made once per schema)", () => {
  const s = v.object({ x: v.number() });
  expect(validateWith(s, { x: 1 }, "input")).toEqual({ ok: true, value: { x: 1 } });
  expect(validateWith(s, { x: "1" }, "input").ok).toBe(false);
  expect(validateWith(s, { x: 2 }, "input")).toEqual({ ok: true, value: { x: 2 } });
});

test("the fast path is taken for the plain shapes and only for them", () => {
  // A schema whose own parse throws: only the fast path can answer for it.
  const unparsable = <T extends v.GenericSchema>(s: T): T =>
    Object.assign(s, {
      "~run": () => {
        throw new Error("valibot ran");
      },
    });
  expect(validateWith(unparsable(v.object({ x: v.number(), o: v.optional(v.boolean()) })), { x: 1 }, "input")).toEqual({
    ok: true,
    value: { x: 1 },
  });
  expect(() => validateWith(unparsable(v.object({ x: v.number() })), { x: "1" }, "input")).toThrow("valibot ran");
  expect(() => validateWith(unparsable(v.object({ x: v.pipe(v.number(), v.minValue(0)) })), { x: 1 }, "input")).toThrow(
    "valibot ran",
  );
  expect(() => validateWith(unparsable(v.object({ x: v.fallback(v.number(), 1) })), { x: 1 }, "input")).toThrow(
    "valibot ran",
  );
});
