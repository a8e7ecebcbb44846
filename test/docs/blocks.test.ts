/** @module The manual's code blocks that are not TypeScript: every JSON and YAML block parses, and every `mcpbin <command> --flag` of a shell block or an inline code span names a command and flags of the CLI's table. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { ROOT } from "../helpers/proc.ts";
import { codeBlocks, documents } from "./examples.ts";

test("every ```json block of the manual is JSON, and every ```yaml block YAML", () => {
  const bad: string[] = [];
  for (const b of documents().flatMap(codeBlocks)) {
    const lang = b.info.split(/\s/)[0];
    try {
      if (lang === "json") JSON.parse(b.text);
      else if (lang === "yaml" || lang === "yml") parseYaml(b.text);
    } catch (e) {
      bad.push(`${b.doc}:${b.line}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  expect(bad).toEqual([]);
});

/** Every `mcpbin …` command line of a text: from `mcpbin` to the end of the command (a comment, `&&`, `|`, `;`, `)`). */
function commandLines(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s(;&|`])mcpbin ((?:[^\n#;&|)`]|&(?!&))*)/g)) out.push(m[1]!.trim());
  return out;
}

/**
 * What is wrong with one `mcpbin <command> …` line: an unknown command, or an option the command does not take.
 * Arguments in quotes are skipped; `…` and placeholders in capitals are prose, not options.
 */
function lineProblem(line: string): string | undefined {
  const words = line
    .replace(/'[^']*'|"[^"]*"/g, "ARG")
    .split(/\s+/)
    .filter(Boolean);
  const [name, ...rest] = words;
  if (name === undefined || name === "--help" || name === "--version") return undefined;
  if (name.startsWith("<") || name === "…") return undefined; // "mcpbin <command> --help" in prose
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) return `no command "${name}"`;
  const unknown = rest
    .map((w) => /^--([a-z][a-z-]*)/.exec(w)?.[1])
    .filter((o): o is string => o !== undefined && o !== "help" && !(o in command.options));
  return unknown.length ? `${name} takes no ${unknown.map((o) => `--${o}`).join(", ")}` : undefined;
}

test("every mcpbin command line of a shell block names a command and options of the CLI's table", () => {
  const bad: string[] = [];
  let seen = 0;
  for (const b of documents().flatMap(codeBlocks)) {
    if (!/^(sh|bash|shell)\b/.test(b.info)) continue;
    const text = b.text.replace(/\\\n\s*/g, " ").replace(/(^|\s)#.*$/gm, ""); // continuations joined, comments dropped
    for (const line of commandLines(text)) {
      seen++;
      const problem = lineProblem(line);
      if (problem) bad.push(`${b.doc}:${b.line}: mcpbin ${line}: ${problem}`);
    }
  }
  expect(bad).toEqual([]);
  expect(seen).toBeGreaterThan(20);
});

test("every `mcpbin <command> --flag` in the prose of the manual names a command and options of the CLI's table", () => {
  const bad: string[] = [];
  let seen = 0;
  for (const doc of documents()) {
    if (/docs\/(benchmarks|benchmarks-history|conformance)\.md$/.test(doc)) continue; // their history names the commands of its day
    const prose = readFileSync(join(ROOT, doc), "utf8").replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
    for (const m of prose.matchAll(/`(?:npx )?mcpbin ([^`]+)`/g)) {
      seen++;
      const problem = lineProblem(m[1]!);
      if (problem) bad.push(`${doc}: mcpbin ${m[1]}: ${problem}`);
    }
  }
  expect(bad).toEqual([]);
  expect(seen).toBeGreaterThan(50);
});
