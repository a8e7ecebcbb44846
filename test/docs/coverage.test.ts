/** @module Every example of the manual is driven by a test, and every code sample of a guide is such an example. */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/proc.ts";
import { codeBlocks, documents, exampleBlocks, exampleFiles } from "./examples.ts";

/**
 * The documents whose every TypeScript block must be an example: README.md and every guide, except the architecture
 * notes (design sketches of the code, not something to build) and the benchmarks' history.
 */
const GUIDES = documents().filter((d) => !/docs\/(architecture|benchmarks|benchmarks-history)\.md$/.test(d));

test("every ```ts block of a guide is an example: marked example=<project>/<file>, or a repository file shown as it is", () => {
  const unmarked = GUIDES.flatMap((doc) => {
    const lines = readFileSync(join(ROOT, doc), "utf8").split("\n");
    // `<!-- example: examples/… -->` above a block: the file itself, which its own test runs (test/sessions/docs.test.ts).
    const shown = (line: number) => /^<!-- example: (\S+) -->$/.exec(lines[line - 2] ?? "")?.[1];
    return codeBlocks(doc)
      .filter((b) => /^(ts|typescript|js|javascript)\b/.test(b.info) && !/\bexample=/.test(b.info))
      .filter((b) => {
        const file = shown(b.line);
        return file === undefined || !existsSync(join(ROOT, file));
      })
      .map((b) => `${b.doc}:${b.line}`);
  });
  expect(unmarked).toEqual([]);
});

test("every example project is named by a test", () => {
  const tests = [...new Glob("test/**/*.test.ts").scanSync(ROOT)]
    .map((f) => readFileSync(join(ROOT, f), "utf8"))
    .join("\n");
  const projects = [...new Set(exampleBlocks().map((b) => b.project))];
  expect(projects.length).toBeGreaterThan(0);
  const unclaimed = projects.filter(
    (p) => !new RegExp(`(?:buildExample|writeExample|exampleFiles)\\(\\s*"${p.replace(/[.-]/g, "\\$&")}"`).test(tests),
  );
  expect(unclaimed).toEqual([]);
});

test("every dependency in package.json is named in the README's dependency list", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<
    string,
    Record<string, string> | undefined
  >;
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const list = readme.slice(readme.indexOf("## Dependencies"));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  expect(names.filter((n) => !list.includes(`\`${n}\``))).toEqual([]);
});

test("the README's dependency table names each package in one row", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const table = readme.slice(readme.indexOf("## Dependencies"), readme.indexOf("## Repository layout"));
  const first = [...table.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]);
  expect(first.filter((name, i) => first.indexOf(name) !== i)).toEqual([]);
});

test("the README explains every EBADENGINE warning npm ci prints on Node 20", () => {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { engines?: { node?: string } }>;
  };
  const warned = Object.entries(lock.packages)
    .filter(
      ([path, e]) => path !== "" && e.engines?.node !== undefined && !Bun.semver.satisfies("20.20.2", e.engines.node),
    )
    .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Engine warnings on Node 20");
  const section = readme.slice(
    readme.indexOf("On Node 20, `npm ci` prints", start),
    readme.indexOf("\n## ", start + 1),
  );
  expect(section).toStartWith(`On Node 20, \`npm ci\` prints ${warned.length} \``);
  expect(warned.filter((name) => !section.includes(`\`${name.split("/").pop()}\``))).toEqual([]);
});

test("no example project is written in two documents", () => {
  for (const p of new Set(exampleBlocks().map((b) => b.project))) expect(() => exampleFiles(p)).not.toThrow();
});
