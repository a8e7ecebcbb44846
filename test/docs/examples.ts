/** @module The examples of README.md and docs/*.md as projects on disk, built and run by the tests of test/docs/. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "bun:test";
import { ROOT } from "../helpers/proc.ts";
import { mcpbin } from "../cli/run-cli.ts";

/**
 * One code block marked as an example: a fence whose info string is `<lang> example=<project>/<file>`
 * (e.g. ```` ```ts example=tools/server.ts ````). GitHub shows such a block as plain `<lang>`.
 */
export interface ExampleBlock {
  /** The document, relative to the repository root (`README.md`, `docs/tools.md`). */
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  project: string;
  file: string;
  text: string;
}

/** Every code block of a document: its info string, its first line and its text. */
export interface CodeBlock {
  doc: string;
  line: number;
  info: string;
  text: string;
}

/** The documents whose examples the suite drives: README.md and every docs/*.md. */
export function documents(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** Every fenced code block of `doc` (``` fences only, as this repository writes them). */
export function codeBlocks(doc: string): CodeBlock[] {
  const lines = readFileSync(join(ROOT, doc), "utf8").split("\n");
  const out: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S.*)?$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]!);
    out.push({ doc, line: start + 1, info: (open[1] ?? "").trim(), text: body.join("\n") + "\n" });
  }
  return out;
}

/** Every block marked `example=<project>/<file>` in README.md and docs/*.md. */
export function exampleBlocks(): ExampleBlock[] {
  const out: ExampleBlock[] = [];
  for (const doc of documents()) {
    for (const b of codeBlocks(doc)) {
      const m = /(?:^|\s)example=([\w.-]+)\/(\S+)/.exec(b.info);
      if (m) out.push({ doc: b.doc, line: b.line, project: m[1]!, file: m[2]!, text: b.text });
    }
  }
  return out;
}

/**
 * The files of one example project: blocks with the same `<project>/<file>` are joined in document
 * order, so a guide may write one file in parts with prose between them.
 * @throws Error when no block names the project, or when blocks of two documents name it.
 */
export function exampleFiles(project: string): Record<string, string> {
  const blocks = exampleBlocks().filter((b) => b.project === project);
  if (blocks.length === 0) throw new Error(`no code block is marked example=${project}/…`);
  const docs = new Set(blocks.map((b) => b.doc));
  if (docs.size > 1)
    throw new Error(`example project "${project}" is written in two documents: ${[...docs].join(", ")}`);
  const files: Record<string, string> = {};
  for (const b of blocks) files[b.file] = (files[b.file] ?? "") + b.text;
  return files;
}

const made: string[] = [];

/** Removes every directory {@link writeExample} made (call it from afterAll). */
export function removeExamples(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes one example project into a new temp directory, as a reader would: `import "mcpbin"` resolves to
 * this repository, and every package of its node_modules (valibot, zod, hono, …) is there too.
 * @param project the `<project>` of the blocks' `example=<project>/<file>`.
 * @param extra more files (path → text) a test needs beside the example's own, e.g. a data file it reads.
 * @returns the directory (removed by {@link removeExamples}).
 */
export function writeExample(project: string, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `mcpbin-doc-${project}-`));
  made.push(dir);
  const nm = join(dir, "node_modules");
  mkdirSync(nm);
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name.startsWith(".")) continue;
    symlinkSync(join(ROOT, "node_modules", name), join(nm, name), "dir");
  }
  symlinkSync(ROOT, join(nm, "mcpbin"), "dir");
  for (const [rel, text] of Object.entries({ ...exampleFiles(project), ...extra })) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/**
 * Writes an example project and compiles it with `mcpbin build <args>` as the guide says to.
 * @param project the example project.
 * @param args the arguments after `build`, e.g. `["server.ts", "--outfile", "dist/server"]`.
 * @param outfile the executable the build writes, relative to the project.
 * @returns the project's directory, the executable's absolute path, and what the build printed.
 */
export async function buildExample(
  project: string,
  args: string[],
  outfile: string,
  extra: Record<string, string> = {},
): Promise<{ dir: string; bin: string; stdout: string; stderr: string }> {
  const dir = writeExample(project, extra);
  const built = await mcpbin(["build", ...args], dir);
  if (built.code !== 0)
    throw new Error(`mcpbin build ${args.join(" ")} of example "${project}" failed:\n${built.stderr}`);
  const bin = join(dir, outfile);
  expect(built.stdout.split("\n")[0]).toBe(bin);
  return { dir, bin, stdout: built.stdout, stderr: built.stderr };
}
