// transformTool(): a new tool from any tool, with an exact advertised schema; driven through the real pipeline
// by connect(server) in both eras, and called directly.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { connect, createServer, tool, transformTool, ToolDefinitionError } from "../../src/index.ts";

const search = tool({
  name: "search",
  description: "Searches the docs",
  annotations: { readOnlyHint: true },
  input: v.object({ q: v.string(), lang: v.string(), limit: v.optional(v.number()) }),
  run: ({ q, lang, limit }, ctx) => `${q}|${lang}|${limit ?? "-"}|${ctx.client?.name ?? "direct"}`,
});

const findDocs = transformTool(search, {
  name: "find_docs",
  description: "Find documentation pages",
  args: {
    q: { rename: "query", description: "What to look for" },
    lang: { hide: true, default: "en" },
    limit: { default: 5 },
  },
});

test("the advertised schema is the source's, reshaped: renamed, described, defaulted, hidden", () => {
  const s = findDocs.inputSchema as any;
  expect(Object.keys(s.properties).sort()).toEqual(["limit", "query"]);
  expect(s.properties.query.description).toBe("What to look for");
  expect(s.properties.limit.default).toBe(5);
  expect(s.required).toEqual(["query"]);
  expect(findDocs.name).toBe("find_docs");
  expect(findDocs.definition.annotations).toEqual({ readOnlyHint: true });
});

test("a direct call maps names back, fills defaults and hidden values", async () => {
  expect(await findDocs({ query: "install" })).toBe("install|en|5|direct");
  expect(await findDocs({ query: "x", limit: 2 })).toBe("x|en|2|direct");
});

test("a client cannot set a hidden argument nor use a renamed argument's old name", async () => {
  expect(await findDocs({ query: "a", lang: "fr" } as never)).toBe("a|en|5|direct");
  await expect(findDocs({ q: "a" } as never)).rejects.toThrow(/query/);
});

test("a hidden value computed per call, and before/after hooks", async () => {
  const t = transformTool(search, {
    name: "search_tenant",
    args: { lang: { hide: true, value: (_args, ctx) => (ctx.protocolVersion ? "de" : "nl") } },
    before: (args) => ({ ...args, q: String(args.q).trim() }),
    after: (result) => `[${result}]`,
  });
  expect(await t({ q: "  spaced  " })).toBe("[spaced|nl|-|direct]");
});

test("author mistakes fail at definition with what to change", () => {
  expect(() => transformTool(search, { args: { nope: { hide: true } } as never })).toThrow(
    /has no argument "nope" \(its arguments: q, lang, limit\)/,
  );
  expect(() => transformTool(search, { args: { q: { hide: true } } })).toThrow(
    /args\.q is required by the tool and hidden: give it a "default" or a "value" function/,
  );
  expect(() => transformTool(search, { args: { q: { rename: "lang" } } })).toThrow(
    /two arguments would be shown as "lang"/,
  );
  expect(() => transformTool(search, { nmae: "x" } as never)).toThrow(ToolDefinitionError);
  expect(() => transformTool(search, { name: "bad name" })).toThrow(ToolDefinitionError);
});

for (const era of ["legacy", "modern"] as const) {
  test(`served (${era}): listed with the new schema, called through the pipeline with the client's context`, async () => {
    const server = createServer({ name: "docs", version: "1.0.0", tools: [search, findDocs] });
    const c = await connect(server, { era } as never);
    try {
      const tools = await c.listTools();
      const t = tools.find((x) => x.name === "find_docs")!;
      expect(Object.keys((t.inputSchema as any).properties).sort()).toEqual(["limit", "query"]);
      const r = await c.callTool("find_docs", { query: "hooks" });
      expect(r.isError).toBeFalsy();
      expect((r.content[0] as any).text).toMatch(/^hooks\|en\|5\|/);
      const bad = await c.callTool("find_docs", { limit: 1 });
      expect(bad.isError).toBe(true);
      expect((bad.content[0] as any).text).toMatch(/query/);
    } finally {
      await c.close();
    }
  });
}

test("transformTool keeps who may call the tool and how it runs: the source's scopes, task support and schemas as written", () => {
  const guarded = tool({
    name: "guarded",
    description: "needs a scope, runs as a task",
    scopes: ["files:write"],
    task: "optional",
    verbatimSchemas: true,
    inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" },
    run: () => "ok",
  });
  const renamed = transformTool(guarded, { name: "renamed" });
  // A transform that dropped the scopes would let a caller without them through (docs/auth.md).
  expect(renamed.definition.scopes).toEqual(["files:write"]);
  expect(renamed.definition.task).toBe("optional");
  expect(renamed.definition.verbatimSchemas).toBe(true);
});
