// Modules in a project's tool directories may export resources, templates and prompts: provenance, include/exclude and the duplicate guard apply.
import { expect, test } from "bun:test";
import { assemble } from "../../src/loader/project.ts";
import { prompt, resource, resourceTemplate, tool } from "../../src/index.ts";

const t = tool({ name: "echo", description: "echo", run: () => "x" });
const r = resource({ uri: "docs://a", name: "a", text: "a" });
const tpl = resourceTemplate({ uriTemplate: "notes:///{+path}", name: "notes", read: () => "" });
const p = prompt({ name: "greet", get: () => "hi" });
const config = { name: "s", version: "1", tools: ["tools"] };

test("content exports are collected with their source; a module of only content is not empty", () => {
  const warnings: string[] = [];
  const o = assemble(
    config,
    "mcpbin.config.ts",
    [
      { ref: { dir: "tools", file: "a.ts" }, exports: { t } },
      { ref: { dir: "tools", file: "docs.ts" }, exports: { default: [r, tpl], p } },
    ],
    (w) => warnings.push(w),
  );
  expect(warnings).toEqual([]);
  expect(o.resources).toEqual([r, tpl]);
  expect(o.prompts).toEqual([p]);
  expect(r.source).toEqual({ dir: "tools", file: "docs.ts" });
  expect(p.source).toEqual({ dir: "tools", file: "docs.ts" });
});

test("include/exclude select prompts by name and resources by name or URI", () => {
  const o = assemble(
    { ...config, exclude: ["docs://*", "greet"] },
    "mcpbin.config.ts",
    [{ ref: { dir: "tools", file: "x.ts" }, exports: { t, r, tpl, p } }],
    () => {},
  );
  expect(o.tools).toEqual([t]);
  expect(o.resources).toEqual([tpl]);
  expect(o.prompts).toBeUndefined();
  const warnings: string[] = [];
  assemble(
    { ...config, include: ["echo", "greet", "nothing*"] },
    "mcpbin.config.ts",
    [{ ref: { dir: "tools", file: "x.ts" }, exports: { t, p } }],
    (w) => warnings.push(w),
  );
  expect(warnings).toEqual(['include pattern "nothing*" matches no tool, resource or prompt (tools: echo)']);
});

test("two modules with one resource URI or prompt name fail with one line naming both files", () => {
  const again = resource({ uri: "docs://a", name: "a2", text: "b" });
  const call = () =>
    assemble(
      config,
      "mcpbin.config.ts",
      [
        { ref: { dir: "tools", file: "one.ts" }, exports: { r } },
        { ref: { dir: "tools", file: "two.ts" }, exports: { again } },
      ],
      () => {},
    );
  expect(call).toThrow(
    'two resources have the URI "docs://a" (tools/one.ts) (tools/two.ts): rename one, or filter one out with include/exclude in mcpbin.config.ts',
  );
  const p2 = prompt({ name: "greet", get: () => "again" });
  expect(() =>
    assemble(
      config,
      "c.ts",
      [
        { ref: { dir: "tools", file: "one.ts" }, exports: { p } },
        { ref: { dir: "tools", file: "two.ts" }, exports: { p2 } },
      ],
      () => {},
    ),
  ).toThrow(/two prompts are named "greet" \(tools\/one.ts\) \(tools\/two.ts\)/);
});
