// Test helper: writes a throwaway project (config + tool modules) into a temp dir where `import "mcpbin"` resolves to this repo.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "../helpers/proc.ts";

const made: string[] = [];

/** Removes every project {@link writeProject} made so far (call it from afterAll). */
export function removeProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Writes `files` (path → text) into a new temp directory with node_modules/mcpbin and
 * node_modules/valibot linked to this repository's copies.
 * @returns the directory (removed by {@link removeProjects}).
 */
export function writeProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-proj-"));
  made.push(dir);
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules/mcpbin"), "dir");
  symlinkSync(join(ROOT, "node_modules/valibot"), join(dir, "node_modules/valibot"), "dir");
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** Source of a module exporting one tool per name, as named exports. */
export function toolsModule(...names: string[]): string {
  return [
    `import { tool } from "mcpbin";`,
    ...names.map(
      (n) =>
        `export const ${n.replace(/-/g, "_")}Tool = tool({ name: ${JSON.stringify(n)}, description: ${JSON.stringify(`the ${n} tool`)}, run: () => ${JSON.stringify(n)} });`,
    ),
  ].join("\n");
}

/** A config file's source. */
export function configSource(o: Record<string, unknown>): string {
  return `import { defineConfig } from "mcpbin";\nexport default defineConfig(${JSON.stringify({ name: "t", version: "1.0.0", ...o })});\n`;
}
