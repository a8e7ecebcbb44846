/** @module Names and notes that explain the code as it is: no issue numbers or "before the fix" history in src/ or test names, no citation of documents the repository lacks. History lives in git and docs/benchmarks-history.md. */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const SELF = "architecture/names.test.ts";

/** Every `file:line: text` under `dir` (glob `pattern`) whose line matches `re`. */
async function hits(dir: string, pattern: string, re: RegExp): Promise<string[]> {
  const out: string[] = [];
  for await (const file of new Glob(pattern).scan({ cwd: resolve(ROOT, dir) })) {
    const lines = (await Bun.file(resolve(ROOT, dir, file)).text()).split("\n");
    lines.forEach((line, i) => {
      if (file !== SELF && re.test(line)) out.push(`${dir}/${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return out.sort();
}

test("src/ names no issue numbers", async () => {
  expect(await hits("src", "**/*.ts", /\bissues? #?\d+/i)).toEqual([]);
});

test("no test name names an issue number", async () => {
  expect(await hits("test", "**/*.ts", /\b(test|it|describe)(\.\w+)?\(\s*["'`][^"'`]*\bissues? #?\d+/i)).toEqual([]);
});

test("src/ and test/ carry no 'before the fix' history notes", async () => {
  const re = /measured on main before|before the (fix|bound)/i;
  expect([...(await hits("src", "**/*.ts", re)), ...(await hits("test", "**/*.ts", re))]).toEqual([]);
});

test("src/ cites no document the repository lacks", async () => {
  expect(await hits("src", "**/*.ts", /\b(PROTOCOL\.md|BEYOND-TOOLS)\b/)).toEqual([]);
});

test("code that ships in an executable writes its stderr lines through the one logger (src/runtime/log-name.ts)", async () => {
  // src/cli/ and src/build/ run only under the `mcpbin` command itself, whose lines rightly say `mcpbin:`.
  const found = await hits("src", "**/*.ts", /stderr\.write\(\s*[`'"]mcpbin:/);
  expect(found.filter((h) => !h.startsWith("src/cli/") && !h.startsWith("src/build/"))).toEqual([]);
});

/** Exported interfaces whose one-letter keys are a compact serialized form, not names a reader meets in code. */
const COMPACT_WIRE_FORMS = ["src/ask/state.ts StatePayload"];

test("no exported interface has a field named e, x or srv", async () => {
  const found: string[] = [];
  for await (const file of new Glob("**/*.ts").scan({ cwd: resolve(ROOT, "src") })) {
    const text = await Bun.file(resolve(ROOT, "src", file)).text();
    for (const m of text.matchAll(/^export interface (\w+)[^{]*\{([\s\S]*?)^\}/gm)) {
      if (COMPACT_WIRE_FORMS.includes(`src/${file} ${m[1]}`)) continue;
      for (const f of m[2]!.matchAll(/^\s+(?:readonly )?(e|x|srv)\??:/gm)) found.push(`src/${file} ${m[1]}.${f[1]}`);
    }
  }
  expect(found.sort()).toEqual([]);
});
