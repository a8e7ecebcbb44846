// The direct serialization of a one-text-block result gives the same line as projecting and stringifying it.
import { expect, test } from "bun:test";
import { callResultLine, plainTextLine, projectCallResult, type CallResult } from "../../src/protocol/project.ts";
import { resultLine } from "../../src/protocol/jsonrpc.ts";
import { FEATURES } from "../../src/protocol/versions.ts";

const META = { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } };
const META_JSON = JSON.stringify(META);

test("plainTextLine = the projected result's line for a plain text block in every version; undefined otherwise", () => {
  const texts = [
    "5",
    "",
    'quote " backslash \\ newline \n tab \t',
    "é€😀\u2028\u2029",
    "\ud800 lone surrogate",
    "\u0000\u001f",
  ];
  let legacy = 0;
  for (const [version, f] of FEATURES) {
    for (const text of texts) {
      for (const id of [1, 'a"b', 0]) {
        const r: CallResult = { content: [{ type: "text", text }] };
        const fast = plainTextLine(id, r, f, META_JSON);
        // The projection every other result takes (src/protocol/project.ts), serialized.
        expect(fast, version).toBe(resultLine(id, projectCallResult(r, f, META)));
        expect(callResultLine(id, r, f, META, META_JSON), version).toBe(fast!);
        if (!f.modern) legacy++;
      }
    }
    const others: CallResult[] = [
      { content: [{ type: "text", text: "x" }], isError: true },
      { content: [{ type: "text", text: "x" }], structuredContent: { a: 1 } },
      { content: [{ type: "text", text: "x" }], _meta: { a: 1 } },
      { content: [{ type: "text", text: "x", annotations: { priority: 1 } }] },
      {
        content: [
          { type: "text", text: "x" },
          { type: "text", text: "y" },
        ],
      },
      { content: [] },
    ];
    for (const r of others) {
      expect(plainTextLine(1, r, f, META_JSON)).toBeUndefined();
      expect(callResultLine(1, r, f, META, META_JSON)).toBe(resultLine(1, projectCallResult(r, f, META)));
    }
  }
  expect(legacy).toBeGreaterThan(0);
});
