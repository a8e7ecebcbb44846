// The layout's rules (test/architecture/rules.ts) hold for the real import graph of src/ (issue 26): each rule is a
// dependency-cruiser `forbidden` rule; a violation not in the list of known exceptions turns this test red.
// Folders import each other in one direction only (no cycle between folders either).
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { KNOWN, RULES } from "./rules.ts";

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
  return [...new Set(r.summary.violations.filter((v) => v.rule.name !== "no-circular").map((v) => `${v.rule.name}: ${v.from} → ${v.to}`))].sort();
}

test("every import obeys the layout's rules (or is a listed known exception)", async () => {
  const r = await graph();
  expect(r.modules.filter((m) => m.source.startsWith("src/")).length).toBeGreaterThan(140);
  const fresh = violations(r).filter((v) => !KNOWN.includes(v));
  expect(fresh).toEqual([]);
}, 60_000);

/** The folder of a module under src/ (`(root)` for src/index.ts). */
const folderOf = (path: string) => /^src\/([^/]+)\//.exec(path)?.[1] ?? (path.startsWith("src/") ? "(root)" : undefined);

/** Strongly connected folders: each group of two or more folders that import each other, through any path. */
export function folderCycles(r: ICruiseResult): string[][] {
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

test("folder cycles", async () => {
  const r = await graph();
  console.log(folderCycles(r));
}, 60_000);
