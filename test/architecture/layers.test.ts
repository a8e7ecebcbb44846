// The layout's rules (test/architecture/rules.ts) hold for the real import graph of src/ (issue 26): each rule is a
// dependency-cruiser `forbidden` rule; a violation not in the list of known exceptions turns this test red.
// Folders import each other in one direction only (no cycle between folders either). Both lists of known exceptions
// tell the truth: a listed exception or cycle member that no longer occurs fails the test too.
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { KNOWN, KNOWN_FOLDER_CYCLE, RULES } from "./rules.ts";

const ROOT = resolve(import.meta.dir, "../..");

let result: ICruiseResult | undefined;
async function graph(): Promise<ICruiseResult> {
  if (result) return result;
  const out = await cruise(["src"], {
    validate: true,
    ruleSet: { forbidden: RULES },
    parser: "swc",
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    baseDir: ROOT,
  });
  return (result = out.output as ICruiseResult);
}

/** Each violation as `rule: from → to`. */
function violations(r: ICruiseResult): string[] {
  return [
    ...new Set(
      r.summary.violations
        .filter((v) => v.rule.name !== "no-circular")
        .map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
    ),
  ].sort();
}

test("every import obeys the layout's rules (or is a listed known exception)", async () => {
  const r = await graph();
  expect(r.modules.filter((m) => m.source.startsWith("src/")).length).toBeGreaterThan(140);
  const fresh = violations(r).filter((v) => !KNOWN.includes(v));
  expect(fresh).toEqual([]);
}, 60_000);

test("every known exception still occurs: a fixed one leaves the list (the list tells the truth)", async () => {
  const found = violations(await graph());
  expect(KNOWN.filter((k) => !found.includes(k))).toEqual([]);
}, 60_000);

/** The folder of a module under src/ (`(root)` for src/index.ts). */
const folderOf = (path: string) =>
  /^src\/([^/]+)\//.exec(path)?.[1] ?? (path.startsWith("src/") ? "(root)" : undefined);

/** Strongly connected folders: each group of two or more folders that import each other, through any path. */
function folderCycles(r: ICruiseResult): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const m of r.modules) {
    const a = folderOf(m.source);
    if (a === undefined) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    for (const d of m.dependencies) {
      const b = folderOf(d.resolved);
      if (b !== undefined && b !== a) edges.get(a)!.add(b);
    }
  }
  // Tarjan's algorithm.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const g: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        g.push(w);
      } while (w !== v);
      if (g.length > 1) groups.push(g.sort());
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return groups;
}

test("folders import each other one way, except those still caught in the known cycle", async () => {
  const groups = folderCycles(await graph());
  // Every group of folders that import each other lies within the known one (it may only shrink); a folder joining it fails.
  for (const g of groups) expect(g.filter((f) => !KNOWN_FOLDER_CYCLE.includes(f))).toEqual([]);
}, 60_000);

test("every folder listed in the known cycle is still caught in one: a folder out of it leaves the list", async () => {
  const caught = new Set(folderCycles(await graph()).flat());
  expect(KNOWN_FOLDER_CYCLE.filter((f) => !caught.has(f))).toEqual([]);
}, 60_000);

test("a folder cycle is found, through any path", () => {
  const mod = (source: string, ...deps: string[]) => ({ source, dependencies: deps.map((resolved) => ({ resolved })) });
  const r = {
    modules: [
      mod("src/a/x.ts", "src/b/y.ts"),
      mod("src/b/y.ts", "src/c/z.ts"),
      mod("src/c/z.ts", "src/a/w.ts"),
      mod("src/a/w.ts"),
      mod("src/d/v.ts", "src/a/x.ts"),
    ],
  };
  expect(folderCycles(r as unknown as ICruiseResult)).toEqual([["a", "b", "c"]]);
});

test("the rules catch what they forbid (a runtime module importing the core, the core importing a capability)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-rules-"));
  try {
    for (const d of ["runtime", "server", "tools"]) mkdirSync(join(dir, "src", d), { recursive: true });
    writeFileSync(join(dir, "src/runtime/a.ts"), `import type { B } from "../server/b.ts";\nexport type A = B;\n`);
    writeFileSync(join(dir, "src/server/b.ts"), `import type { C } from "../tools/c.ts";\nexport type B = C;\n`);
    writeFileSync(join(dir, "src/tools/c.ts"), `export type C = string;\n`);
    const out = await cruise(["src"], {
      validate: true,
      ruleSet: { forbidden: RULES },
      parser: "swc",
      tsPreCompilationDeps: true,
      baseDir: dir,
    });
    expect(violations(out.output as ICruiseResult)).toEqual([
      "runtime-is-the-ground-floor: src/runtime/a.ts → src/server/b.ts",
      "server-knows-no-capability: src/server/b.ts → src/tools/c.ts",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
