// Any Standard Schema (issue 21): zod 4 and arktype beside valibot, validated through `~standard.validate`,
// converted by the library's own converter, normalized like valibot and recorded at build time.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { z } from "zod";
import { type } from "arktype";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tool, ToolArgumentsError, ToolDefinitionError } from "../../src/index.ts";
import { parseArguments } from "../../src/tools/validate.ts";
import { inspectScript } from "../../src/build/precompute.ts";
import { BUN, compileFixture, ROOT } from "../helpers/proc.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "../cli/run-cli.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { symlinkSync } from "node:fs";
import { join, resolve } from "node:path";

const FIXTURE = "test/fixtures/servers/standard.ts";
const ZOD_INPUT = {
  type: "object",
  properties: {
    q: { type: "string", minLength: 1, description: "what to look for" },
    limit: { type: "integer", maximum: 50, minimum: -9007199254740991, default: 5 },
    mode: { type: "string", enum: ["fast", "deep"] },
  },
  required: ["q"],
};
const ARK_INPUT = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" }, note: { type: "string" } },
  required: ["a", "b"],
};

let bin: string;
afterAll(removeProjects);
beforeAll(async () => {
  bin = await compileFixture(FIXTURE, "standard");
}, 120_000);

test("a zod 4 tool: its JSON Schema by z.toJSONSchema, normalized ($schema dropped); defaults filled and issues named on a direct call", async () => {
  const t = tool({
    name: "zs",
    description: "d",
    input: z.object({
      q: z.string().min(1).describe("what to look for"),
      limit: z.number().int().max(50).default(5),
      mode: z.enum(["fast", "deep"]).optional(),
    }),
    run: (a) => a,
  });
  expect(t.inputSchema).toEqual(ZOD_INPUT);
  expect(t.inputSchema.$schema).toBeUndefined();
  expect(await t({ q: "x" })).toEqual({ q: "x", limit: 5 });
  const err = await t({ q: "", limit: 1.5 }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ToolArgumentsError);
  expect((err as ToolArgumentsError).issues.map((l) => l.split(":")[0])).toEqual(["q", "limit"]);
  // output: the side after parsing (defaulted fields required)
  const o = tool({ name: "zo", description: "d", output: z.object({ n: z.number().default(1) }), run: () => ({}) });
  expect(o.outputSchema).toEqual({
    type: "object",
    properties: { n: { type: "number", default: 1 } },
    required: ["n"],
    additionalProperties: false,
  });
});

test("an arktype tool (a function, yet a schema, not the function form): its JSON Schema by toJsonSchema, validated through ~standard", async () => {
  const t = tool({
    name: "as",
    description: "d",
    input: type({ a: "number", b: "number", "note?": "string" }),
    run: ({ a, b }) => a + b,
  });
  expect(t.inputSchema).toEqual(ARK_INPUT);
  expect(await t({ a: 1, b: 2 })).toBe(3);
  expect(parseArguments(t, { a: 1 })).toEqual({ ok: false, issues: ["b: b must be a number (was missing)"] });
});

test("author mistakes fail at definition with one line: no converter, an inexpressible type, a non-object root, not a schema at all", () => {
  const bare = { "~standard": { version: 1, vendor: "homemade", validate: (x: unknown) => ({ value: x }) } } as const;
  const msg = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(ToolDefinitionError);
      expect((e as Error).message).not.toContain("\n");
      return (e as Error).message;
    }
    throw new Error("did not throw");
  };
  expect(msg(() => tool({ name: "b", description: "d", input: bare, run: () => 1 }))).toBe(
    'tool "b": the input schema is a Standard Schema from "homemade" without a JSON Schema converter (~standard.jsonSchema, toJSONSchema() or toJsonSchema()): use valibot, zod 4 or arktype, or pass a raw inputSchema',
  );
  expect(
    msg(() => tool({ name: "d", description: "d", input: z.object({ when: z.date() }), run: () => 1 })),
  ).toStartWith('tool "d": the input schema (zod) cannot be expressed in JSON Schema (');
  expect(msg(() => tool({ name: "d2", description: "d", input: type({ when: "Date" }), run: () => 1 }))).toStartWith(
    'tool "d2": the input schema (arktype) cannot be expressed in JSON Schema (',
  );
  expect(msg(() => tool({ name: "r", description: "d", input: z.string(), run: () => 1 }))).toContain(
    'tool "r": the input schema must be an object at its root',
  );
  expect(msg(() => tool({ name: "p", description: "d", input: { q: "string" } as never, run: () => 1 }))).toStartWith(
    `tool "p": "input" must be a valibot schema (v.object({...})), a Standard Schema such as zod 4's z.object({...}) or arktype's type({...}), or a function returning one; got a plain object`,
  );
});

test("an async zod refinement: a direct call waits for it; over the protocol it is reported, not hung", async () => {
  const t = tool({
    name: "az",
    description: "d",
    input: z.object({ id: z.string().refine(async (s) => s !== "taken", "taken") }),
    run: ({ id }) => id,
  });
  expect(await t({ id: "free" })).toBe("free");
  expect(await t({ id: "taken" }).catch((e: ToolArgumentsError) => e.issues)).toEqual(["id: taken"]);
  const r = parseArguments(t, { id: "free" });
  expect(r.ok).toBe(false);
  expect((r as { issues: string[] }).issues[0]).toContain("validates asynchronously");
});

test("the build records the zod and arktype conversions (the executable does not convert at start)", async () => {
  const r = await inspectScript(resolve(ROOT, FIXTURE), BUN);
  if ("notServer" in r) throw new Error(r.notServer);
  const texts = Object.entries(r.schemas).map(
    ([k, text]) => [k.split("\u0000").slice(0, 3).join(" "), JSON.parse(text)] as const,
  );
  expect(texts.map(([k]) => k).sort()).toEqual([
    "ark_bad_output 0 input",
    "ark_bad_output 0 output",
    "ark_sum 0 input",
    "ark_sum 0 output",
    "zod_lazy 0 input",
    "zod_search 0 input",
    "zod_search 0 output",
  ]);
  expect(texts.find(([k]) => k === "zod_search 0 input")![1]).toEqual(ZOD_INPUT);
  expect(texts.find(([k]) => k === "ark_sum 0 input")![1]).toEqual(ARK_INPUT);
}, 60_000);

test("compiled: the official SDK client lists the zod and arktype tools with their JSON Schemas, and calls are validated at run time", async () => {
  const client = new Client({ name: "t", version: "1" });
  const transport = new StdioClientTransport({ command: bin, stderr: "pipe" });
  const seen = tap(transport as unknown as Transport);
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(by.zod_search!.inputSchema as unknown).toEqual(ZOD_INPUT);
    expect(by.zod_search!.outputSchema).toEqual({
      type: "object",
      properties: { hits: { type: "array", items: { type: "string" } }, limit: { type: "number" } },
      required: ["hits", "limit"],
      additionalProperties: false,
    });
    expect(by.ark_sum!.inputSchema as unknown).toEqual(ARK_INPUT);
    expect(by.zod_lazy!.inputSchema).toEqual({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });

    const ok = await client.callTool({ name: "zod_search", arguments: { q: "mcp" } });
    expect(ok.structuredContent).toEqual({ hits: ["mcp:5"], limit: 5 });
    const bad = await client.callTool({ name: "zod_search", arguments: { q: "mcp", limit: 500 } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toStartWith("Invalid arguments for tool zod_search:\nlimit: ");
    expect((await client.callTool({ name: "ark_sum", arguments: { a: 2, b: 3 } })).structuredContent).toEqual({
      sum: 5,
    });
    const badArk = await client.callTool({ name: "ark_sum", arguments: { a: 2, b: "3" } });
    expect((badArk.content as { text: string }[])[0]!.text).toBe(
      "Invalid arguments for tool ark_sum:\nb: b must be a number (was a string)",
    );
    expect((await client.callTool({ name: "zod_lazy", arguments: { n: 4 } })).content).toEqual([
      { type: "text", text: "8" },
    ]);
    const out = await client.callTool({ name: "ark_bad_output", arguments: {} });
    expect(out.isError).toBe(true);
    expect(seen.length).toBe(8); // initialize, tools/list and 6 calls, each valid against 2025-11-25's schema
    expect((out.content as { text: string }[])[0]!.text).toBe(
      "Tool ark_bad_output returned structured content that does not match its output schema:\nsum: sum must be a number (was a string)",
    );
  } finally {
    await client.close();
  }
}, 30_000);

test("mcpbin build refuses a Standard Schema without a converter in one line, and compiles nothing", async () => {
  const dir = writeProject({
    "server.ts": `import { serve, tool } from "mcpbin";
const homemade = { "~standard": { version: 1, vendor: "homemade", validate: (value) => ({ value }) } };
await serve({ name: "s", version: "1.0.0", tools: [tool({ name: "h", description: "d", input: homemade, run: () => 1 })] });
`,
  });
  symlinkSync(join(ROOT, "node_modules/zod"), join(dir, "node_modules/zod"), "dir");
  const line = oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/server"], dir));
  expect(line).toBe(
    'mcpbin: server.ts failed to load: tool "h": the input schema is a Standard Schema from "homemade" without a JSON Schema converter (~standard.jsonSchema, toJSONSchema() or toJsonSchema()): use valibot, zod 4 or arktype, or pass a raw inputSchema',
  );
}, 60_000);
