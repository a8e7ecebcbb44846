// shapeResult and the isError texts, called directly: the cases a process test would only repeat.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { textContent, tool, toolResult } from "../../src/index.ts";
import { shapeResult, thrownText } from "../../src/tools/call.ts";
import { resolveJsonOptions } from "../../src/shared/json.ts";

const json = resolveJsonOptions(undefined);
const plain = tool({ name: "plain", description: "", run: () => 1 });
const shaped = tool({ name: "shaped", description: "", output: v.object({ a: v.number() }), run: () => ({ a: 1 }) });

test("a thrown value of any kind becomes a readable message", () => {
  expect(thrownText(plain, new Error("disk full"))).toBe("disk full");
  expect(thrownText(plain, new TypeError(""))).toBe("TypeError");
  expect(thrownText(plain, "just a string")).toBe("just a string");
  expect(thrownText(plain, { message: "shaped like an error" })).toBe("shaped like an error");
  expect(thrownText(plain, { code: 42 })).toBe('{"code":42}');
  expect(thrownText(plain, undefined)).toBe("undefined");
  expect(thrownText(plain, 10n)).toBe("10");
});

test("toolResult content is copied, never aliased, and no fallback is added to explicit content", () => {
  const content = [textContent("a")];
  const r = shapeResult(plain, toolResult({ content, structuredContent: { x: 1 } }), json);
  expect(r.content).toEqual([{ type: "text", text: "a" }]);
  expect(r.content).not.toBe(content);
  expect(r.structuredContent).toEqual({ x: 1 });
  // Explicitly empty content stays empty.
  expect(shapeResult(plain, toolResult({ content: [], structuredContent: { x: 1 } }), json).content).toEqual([]);
  expect(shapeResult(plain, toolResult({}), json)).toEqual({ content: [] });
});

test("structured content that JSON cannot carry is an isError result, with or without an output schema", () => {
  const cyc: Record<string, unknown> = {};
  cyc.me = cyc;
  expect(shapeResult(plain, toolResult({ structuredContent: cyc }), json)).toEqual({
    content: [
      {
        type: "text",
        text: "Tool plain returned a value JSON cannot carry: cannot encode the result as JSON at $.me: the value contains a cycle",
      },
    ],
    isError: true,
  });
  expect(shapeResult(shaped, { a: NaN }, resolveJsonOptions({ nonFinite: "error" })).isError).toBe(true);
  // Under the default rules NaN becomes null, which the output schema then refuses, naming the path.
  expect(shapeResult(shaped, { a: NaN }, json).content[0]).toEqual({
    type: "text",
    text: "Tool shaped returned structured content that does not match its output schema:\na: Invalid type: Expected number but received null",
  });
});

test("an ordinary value with an output schema is the structured content; a string is not special there", () => {
  expect(shapeResult(shaped, { a: 2 }, json)).toEqual({
    content: [{ type: "text", text: '{"a":2}' }],
    structuredContent: { a: 2 },
  });
  expect(shapeResult(shaped, "text", json).isError).toBe(true);
});
