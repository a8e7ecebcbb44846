// The direct serialization of a one-text-block result gives the same line as projecting and stringifying it.
import { expect, test } from "bun:test";
import { plainTextLine, projectResult, type CallResult } from "../../src/protocol/project.ts";
import { resultLine } from "../../src/protocol/jsonrpc.ts";
import { FEATURES } from "../../src/protocol/versions.ts";

test("plainTextLine = resultLine(projectResult) for a plain text block in every legacy version; undefined otherwise", () => {
  const texts = ["5", "", 'quote " backslash \\ newline \n tab \t', "é€😀\u2028\u2029", "\ud800 lone surrogate", "\u0000\u001f"];
  let legacy = 0;
  for (const [version, f] of FEATURES) {
    for (const text of texts) {
      for (const id of [1, "a\"b", 0]) {
        const r: CallResult = { content: [{ type: "text", text }] };
        const fast = plainTextLine(id, r, f);
        if (f.modern) {
          expect(fast).toBeUndefined();
          continue;
        }
        legacy++;
        expect(fast, version).toBe(resultLine(id, projectResult(r, f)));
      }
    }
    const others: CallResult[] = [
      { content: [{ type: "text", text: "x" }], isError: true },
      { content: [{ type: "text", text: "x" }], structuredContent: { a: 1 } },
      { content: [{ type: "text", text: "x" }], _meta: { a: 1 } },
      { content: [{ type: "text", text: "x", annotations: { priority: 1 } }] },
      { content: [{ type: "text", text: "x" }, { type: "text", text: "y" }] },
      { content: [] },
    ];
    for (const r of others) expect(plainTextLine(1, r, f)).toBeUndefined();
  }
  expect(legacy).toBeGreaterThan(0);
});
