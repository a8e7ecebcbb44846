// Payload JSON: how values JSON cannot carry are encoded, under each option, and the text of ordinary return values.
import { expect, test } from "bun:test";
import { JsonEncodeError, JsonOptionsError, resolveJsonOptions, textOf, toJsonValue } from "../../src/shared/json.ts";

test("defaults: undefined omitted, NaN/±Infinity → null, BigInt → decimal string, Date → ISO string", () => {
  const v = {
    count: 2n ** 64n,
    ratio: NaN,
    max: Infinity,
    min: -Infinity,
    note: undefined,
    when: new Date(0),
    list: [1, undefined, NaN],
  };
  expect(toJsonValue(v)).toEqual({
    count: "18446744073709551616",
    ratio: null,
    max: null,
    min: null,
    when: "1970-01-01T00:00:00.000Z",
    list: [1, null, null],
  });
  expect(Object.keys(toJsonValue({ a: undefined, b: 1 }) as object)).toEqual(["b"]);
  expect(toJsonValue(new Date(Number.NaN))).toBeNull();
});

test("nonFinite: null | string | error", () => {
  expect(toJsonValue([NaN, Infinity, -Infinity], { nonFinite: "null" })).toEqual([null, null, null]);
  expect(toJsonValue([NaN, Infinity, -Infinity], { nonFinite: "string" })).toEqual(["NaN", "Infinity", "-Infinity"]);
  expect(() => toJsonValue({ a: { b: [1, NaN] } }, { nonFinite: "error" })).toThrow(
    "cannot encode the result as JSON at $.a.b[1]: NaN is not a finite number",
  );
});

test("bigint: string | number (when safe) | error", () => {
  expect(toJsonValue({ n: 5n, big: 2n ** 64n }, { bigint: "string" })).toEqual({ n: "5", big: "18446744073709551616" });
  expect(toJsonValue({ n: 5n, neg: -7n, big: 2n ** 64n }, { bigint: "number" })).toEqual({
    n: 5,
    neg: -7,
    big: "18446744073709551616",
  });
  expect(() => toJsonValue({ n: 5n }, { bigint: "error" })).toThrow(/at \$\.n: BigInt values are refused/);
});

test("Map → object, Set and typed arrays → arrays, toJSON honoured", () => {
  expect(
    toJsonValue(
      new Map<unknown, unknown>([
        ["a", 1],
        [2, new Set(["x"])],
      ]),
    ),
  ).toEqual({ a: 1, "2": ["x"] });
  expect(toJsonValue(new Set([1, 2, 2, 3]))).toEqual([1, 2, 3]);
  expect(
    toJsonValue({ u8: new Uint8Array([1, 2]), f: new Float64Array([0.5, NaN]), b: new BigInt64Array([3n]) }),
  ).toEqual({ u8: [1, 2], f: [0.5, null], b: ["3"] });
  expect(toJsonValue({ x: { toJSON: () => ({ y: 1n }) } })).toEqual({ x: { y: "1" } });
  expect(toJsonValue(new URL("https://e.com/a"))).toBe("https://e.com/a");
});

test("a cycle is an error naming where it closes; shared (acyclic) references are fine", () => {
  const a: Record<string, unknown> = { name: "a" };
  a.self = a;
  expect(() => toJsonValue({ root: a })).toThrow(JsonEncodeError);
  expect(() => toJsonValue({ root: a })).toThrow(
    "cannot encode the result as JSON at $.root.self: the value contains a cycle",
  );
  const shared = { s: 1 };
  expect(toJsonValue({ x: shared, y: [shared, shared] })).toEqual({ x: { s: 1 }, y: [{ s: 1 }, { s: 1 }] });
  expect(() => toJsonValue({ f: () => 1 })).toThrow(/at \$\.f: a function has no JSON form/);
});

test("textOf: strings are never encoded twice; other values are compact JSON once", () => {
  expect(textOf('line1\nline2\t"q"')).toBe('line1\nline2\t"q"');
  expect(textOf('{"already":"json"}')).toBe('{"already":"json"}');
  expect(textOf({ a: 1 })).toBe('{"a":1}');
  expect(textOf({ s: 'a"b' })).toBe('{"s":"a\\"b"}');
  expect(textOf(["a", "b"])).toBe("a\nb");
  expect(textOf([1, "b"])).toBe('[1,"b"]');
  expect(textOf([])).toBe("[]");
  expect(textOf(undefined)).toBe("{}");
  expect(textOf(null)).toBe("{}");
  expect(textOf(42)).toBe("42");
  expect(textOf(true)).toBe("true");
  // A value whose JSON form is a string is that string, unquoted.
  expect(textOf(2n ** 64n)).toBe("18446744073709551616");
  expect(textOf(new Date(0))).toBe("1970-01-01T00:00:00.000Z");
  expect(textOf(NaN)).toBe("null");
  expect(textOf(NaN, { nonFinite: "string" })).toBe("NaN");
});

test("options are checked and resolved once; a bad option names itself and its accepted values", () => {
  expect(resolveJsonOptions(undefined)).toEqual({ nonFinite: "null", bigint: "string" });
  expect(resolveJsonOptions({ bigint: "number" })).toEqual({ nonFinite: "null", bigint: "number" });
  expect(() => resolveJsonOptions({ nonFinite: "zero" as never })).toThrow(JsonOptionsError);
  expect(() => resolveJsonOptions({ nonFinite: "zero" as never })).toThrow(
    'json.nonFinite must be one of "null", "string", "error"; got "zero"',
  );
  expect(() => resolveJsonOptions({ bigint: 1 as never })).toThrow(
    /json.bigint must be one of "string", "number", "error"/,
  );
  expect(() => resolveJsonOptions({ dates: "epoch" } as never)).toThrow(/"json.dates" is not a known key/);
});
