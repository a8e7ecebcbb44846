/** @module The manual's links and paths: every relative link of README.md and docs/*.md reaches a file (and a heading), and every repository path a guide names exists. */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { ROOT } from "../helpers/proc.ts";
import { documents } from "./examples.ts";

/** The text of a document without its fenced code blocks (links and paths there are examples, not references). */
function prose(doc: string): string {
  return readFileSync(join(ROOT, doc), "utf8").replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

/** GitHub's anchors of a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(doc).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test("every relative link of the manual reaches a file, and a heading when it names one", () => {
  const broken: string[] = [];
  for (const doc of documents()) {
    for (const m of prose(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const file = path === "" ? doc : normalize(join(dirname(doc), path));
      if (!existsSync(join(ROOT, file))) broken.push(`${doc}: ${target} (no ${file})`);
      else if (anchor !== undefined && file.endsWith(".md") && !anchors(file).has(anchor))
        broken.push(`${doc}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  expect(broken).toEqual([]);
});

test("every repository path the README and the guides name exists", () => {
  const guides = documents().filter((d) => !/docs\/(benchmarks|benchmarks-history|conformance)\.md$/.test(d)); // their history names old paths on purpose
  const missing: string[] = [];
  for (const doc of guides) {
    for (const m of prose(doc).matchAll(/(?<![\w./-])((?:src|test|scripts|examples|bin)\/[\w./*{}-]*[\w*}])/g)) {
      const path = m[1]!;
      const found = /[*{]/.test(path)
        ? new Glob(path).scanSync({ cwd: ROOT, onlyFiles: false }).next().done === false
        : existsSync(join(ROOT, path));
      if (!found) missing.push(`${doc}: ${path}`);
    }
  }
  expect(missing).toEqual([]);
});

test("the README's map of the guides links every document of docs/", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const map = readme.slice(readme.indexOf("## Guides"), readme.indexOf("\n## ", readme.indexOf("## Guides") + 1));
  const unlisted = documents()
    .filter((d) => d.startsWith("docs/"))
    .filter((d) => !map.includes(`](${d})`));
  expect(unlisted).toEqual([]);
});
