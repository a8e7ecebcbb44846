// The loader: discovery across directories, what is skipped, export shapes, warnings, broken modules, provenance.
import { expect, test, afterAll } from "bun:test";
import { join } from "node:path";
import { symlinkSync } from "node:fs";
import { loadProject } from "../../src/loader/project.ts";
import { Registry } from "../../src/server/registry.ts";
import { FEATURES } from "../../src/protocol/versions.ts";
import { toolsListJson } from "../../src/tools/list-json.ts";
import { isToolModuleName } from "../../src/loader/discover.ts";
import { configSource, toolsModule, writeProject, removeProjects } from "./fixture-project.ts";

afterAll(removeProjects);

async function load(dir: string) {
  const warnings: string[] = [];
  const project = await loadProject(join(dir, "mcpbin.config.ts"), (w) => warnings.push(w));
  return { project, warnings, names: project.options.tools.map((t) => t.name) };
}

test("discovery across two directories: recursive, sorted, skipping tests, specs, declarations, _ and . names", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools/b", "tools/a"] }),
    "tools/a/zeta.ts": toolsModule("a_zeta"),
    "tools/a/alpha.mts": toolsModule("a_alpha"),
    "tools/a/nested/deep.js": `import { tool } from "mcpbin";\nexport const t = tool({ name: "a_deep", description: "d", run: () => 1 });`,
    "tools/a/Upper.mjs": `import { tool } from "mcpbin";\nexport const t = tool({ name: "a_upper", description: "u", run: () => 1 });`,
    "tools/a/_helper.ts": toolsModule("helper_skipped"),
    "tools/a/.hidden.ts": toolsModule("hidden_skipped"),
    "tools/a/_private/inner.ts": toolsModule("private_skipped"),
    "tools/a/zeta.test.ts": toolsModule("test_skipped"),
    "tools/a/zeta.spec.ts": toolsModule("spec_skipped"),
    "tools/a/types.d.ts": "export declare const x: number;",
    "tools/a/notes.md": "not a module",
    "tools/a/node_modules/pkg/index.ts": toolsModule("node_modules_skipped"),
    "tools/b/one.ts": toolsModule("b_one", "b_two"),
  });
  const { project, warnings, names } = await load(dir);
  expect(warnings).toEqual([]);
  // Config order of directories; inside a directory, code-unit order of the relative path; exports by name.
  expect(names).toEqual(["b_one", "b_two", "a_upper", "a_alpha", "a_deep", "a_zeta"]);
  expect(project.modules.map((m) => `${m.dir}|${m.file}`)).toEqual([
    "tools/b|one.ts",
    "tools/a|Upper.mjs",
    "tools/a|alpha.mts",
    "tools/a|nested/deep.js",
    "tools/a|zeta.ts",
  ]);
  const deep = project.options.tools.find((t) => t.name === "a_deep")!;
  expect(deep.source).toEqual({ dir: "tools/a", file: "nested/deep.js" });
});

test("a symlink loop inside a tools directory is followed once, not forever", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/a/t.ts": toolsModule("looped"),
  });
  symlinkSync(join(dir, "tools"), join(dir, "tools/a/back"), "dir");
  const { names } = await load(dir);
  expect(names).toEqual(["looped"]);
});

test("file names the directory scan takes and skips", () => {
  for (const ok of ["a.ts", "a.mts", "a.js", "a.mjs", "a.b.ts"]) expect(isToolModuleName(ok)).toBe(true);
  for (const no of ["a.test.ts", "a.spec.mjs", "a.d.ts", "a.d.mts", "_a.ts", ".a.ts", "a.tsx", "a.json", "a.cjs"])
    expect(isToolModuleName(no)).toBe(false);
});

test("named exports, the default export and arrays of tools are collected; one tool exported twice counts once", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools", "extra.ts"] }),
    "tools/shapes.ts": [
      `import { tool } from "mcpbin";`,
      `const mk = (name: string) => tool({ name, description: name, run: () => name });`,
      `export default mk("from_default");`,
      `export const list = [mk("in_array_1"), [mk("in_nested_array")], "not a tool", 42];`,
      `export const single = mk("named");`,
      `export const again = single;`,
      `export const notATool = { name: "x" };`,
    ].join("\n"),
    "extra.ts": `export { single as reexported } from "./tools/shapes.ts";\n` + toolsModule("extra_one"),
  });
  const { project, warnings, names } = await load(dir);
  expect(warnings).toEqual([]);
  // Export-name order: "again" (the same tool as "single") comes first.
  expect(names).toEqual(["named", "from_default", "in_array_1", "in_nested_array", "extra_one"]);
  expect(project.options.tools.find((t) => t.name === "named")!.source).toEqual({ dir: "tools", file: "shapes.ts" });
  expect(project.options.tools.find((t) => t.name === "extra_one")!.source).toEqual({ dir: ".", file: "extra.ts" });
});

test("a module without tools is a warning", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/real.ts": toolsModule("real"),
    "tools/helpers.ts": "export const answer = 42;",
  });
  const { warnings, names } = await load(dir);
  expect(names).toEqual(["real"]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toStartWith("tools/helpers.ts exports no tool");
});

test("a module that fails to import is an error naming the file and the cause", async () => {
  const syntax = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/ok.ts": toolsModule("ok"),
    "tools/broken.ts": "export const = ;",
  });
  const e1 = await loadProject(join(syntax, "mcpbin.config.ts"), () => {}).catch((e) => e);
  expect(e1.name).toBe("LoaderError");
  expect(e1.message).toContain("tools/broken.ts failed to load: ");

  const throws = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/boom.ts": `throw new Error("no API key in the environment");`,
  });
  const e2 = await loadProject(join(throws, "mcpbin.config.ts"), () => {}).catch((e) => e);
  expect(e2.message).toEndWith("tools/boom.ts failed to load: no API key in the environment");

  const badTool = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/bad-name.ts": `import { tool } from "mcpbin";\nexport const t = tool({ name: "has space", description: "d", run: () => 1 });`,
  });
  const e3 = await loadProject(join(badTool, "mcpbin.config.ts"), () => {}).catch((e) => e);
  expect(e3.message).toContain('tools/bad-name.ts failed to load: tool name "has space" is not accepted');
});

test("provenance stays on the server: no version's tools/list carries the source", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"] }),
    "tools/secret-place.ts": toolsModule("located"),
  });
  const { project } = await load(dir);
  const t = project.options.tools[0]!;
  expect(t.source).toEqual({ dir: "tools", file: "secret-place.ts" });
  const registry = new Registry(project.options);
  for (const f of FEATURES.values()) {
    const json = toolsListJson(registry, f);
    expect(JSON.parse(json).tools[0].name).toBe("located");
    expect(json).not.toContain("secret-place");
    expect(json).not.toContain('"source"');
    expect(json).not.toContain(dir);
  }
});
