// No import cycle anywhere in src/, type-only imports included (issue 13): dependency-cruiser parses every
// module with swc (TypeScript 7 has no compiler API it can use yet) and reports each cycle it finds.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";

const ROOT = resolve(import.meta.dir, "../..");

/** The modules under `dir` and the cycles among them, as `a.ts → b.ts → a.ts` lines. */
async function cycles(dir: string): Promise<{ modules: ICruiseResult["modules"]; cycles: string[] }> {
  const out = await cruise([dir], {
    validate: true,
    ruleSet: { forbidden: [{ name: "no-circular", severity: "error", from: {}, to: { circular: true } }] },
    parser: "swc",
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    baseDir: ROOT,
  });
  const result = out.output as ICruiseResult;
  const lines = result.summary.violations
    .filter((v) => v.rule.name === "no-circular")
    .map((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name)].join(" → "));
  return { modules: result.modules, cycles: lines };
}

test("src/ has no import cycle (type-only imports count)", async () => {
  const { modules, cycles: found } = await cycles("src");
  // The graph is the real one: every module is there, type-only and dynamic imports were seen.
  expect(modules.filter((m) => m.source.startsWith("src/")).length).toBeGreaterThan(140);
  const deps = (from: string) => modules.find((m) => m.source === from)?.dependencies.map((d) => d.resolved) ?? [];
  expect(deps("src/server/connection.ts")).toContain("src/server/options.ts"); // import type
  expect(deps("src/serve/run-server.ts")).toContain("src/transport/http.ts"); // await import()
  expect(found).toEqual([]);
}, 60_000);

test("the check finds a cycle made only of type imports", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-cycle-"));
  try {
    writeFileSync(join(dir, "a.ts"), `import type { B } from "./b.ts";\nexport interface A { b: B }\n`);
    writeFileSync(join(dir, "b.ts"), `import type { A } from "./a.ts";\nexport interface B { a?: A }\n`);
    writeFileSync(join(dir, "c.ts"), `import type { A } from "./a.ts";\nexport type C = A;\n`);
    const { cycles: found } = await cycles(dir);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((line) => /[ab]\.ts → .*[ab]\.ts/.test(line))).toBe(true);
    expect(found.some((line) => line.includes("c.ts"))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
