// include/exclude by tool name with globs, the typo guard, and the duplicate-name error (filters apply first).
import { expect, test, afterAll } from "bun:test";
import { join } from "node:path";
import { loadProject } from "../../src/loader/project.ts";
import { configSource, toolsModule, writeProject, removeProjects } from "./fixture-project.ts";

afterAll(removeProjects);

const TOOLS = {
  "tools/admin.ts": toolsModule("admin_users", "admin_roles"),
  "tools/public.ts": toolsModule("search", "fetch_page", "debug_dump"),
};

async function names(config: Record<string, unknown>, files: Record<string, string> = TOOLS) {
  const dir = writeProject({ "mcpbin.config.ts": configSource({ tools: ["tools"], ...config }), ...files });
  const warnings: string[] = [];
  const project = await loadProject(join(dir, "mcpbin.config.ts"), (w) => warnings.push(w));
  return { names: project.options.tools.map((t) => t.name), warnings };
}

test("include keeps only the tools matching a glob", async () => {
  const r = await names({ include: ["admin_*", "search"] });
  expect(r.names).toEqual(["admin_roles", "admin_users", "search"]);
  expect(r.warnings).toEqual([]);
});

test("exclude drops the tools matching a glob", async () => {
  const r = await names({ exclude: ["admin_*", "debug_?ump"] });
  expect(r.names).toEqual(["fetch_page", "search"]);
  expect(r.warnings).toEqual([]);
});

test("include then exclude; brace and class globs", async () => {
  const r = await names({ include: ["{admin,fetch}_*"], exclude: ["admin_[r]*"] });
  expect(r.names).toEqual(["admin_users", "fetch_page"]);
});

test("a pattern that matches no tool is a warning (typo guard)", async () => {
  const r = await names({ exclude: ["admn_*", "debug_*"] });
  expect(r.names).toEqual(["admin_roles", "admin_users", "fetch_page", "search"]);
  expect(r.warnings).toHaveLength(1);
  expect(r.warnings[0]).toStartWith('exclude pattern "admn_*" matches no tool (tools: ');
  expect(r.warnings[0]).toContain("admin_users");
});

test("two tools with one name: an error naming both source files and suggesting a filter", async () => {
  const files = {
    "tools/a/search.ts": toolsModule("search"),
    "tools/b/search.ts": toolsModule("search"),
    "tools/b/other.ts": toolsModule("other"),
  };
  const dir = writeProject({ "mcpbin.config.ts": configSource({ tools: ["tools/a", "tools/b"] }), ...files });
  const e = await loadProject(join(dir, "mcpbin.config.ts"), () => {}).catch((x) => x);
  expect(e.name).toBe("LoaderError");
  expect(e.message).toContain('two tools are named "search": tools/a/search.ts and tools/b/search.ts');
  expect(e.message).toContain('exclude: ["search"]');
});

test("filters apply before the duplicate check", async () => {
  const files = { "tools/a/search.ts": toolsModule("search", "a_only"), "tools/b/search.ts": toolsModule("search") };
  const r = await names({ exclude: ["search"] }, files);
  expect(r.names).toEqual(["a_only"]);
});
