// JSON Schemas recorded by `mcpbin build` stay JSON text in the executable: tool() neither converts nor
// parses them, and tools/list splices the text in. The listing must be byte-identical to converting.
import { afterEach, expect, test } from "bun:test";
import * as v from "valibot";
import { tool, type Tool } from "../../src/index.ts";
import { resetDefinitionCounts } from "../../src/tools/recorded.ts";
import { contract } from "../../src/runtime/contract.ts";
import { projectTool, projectToolJson } from "../../src/tools/project.ts";
import { FEATURES } from "../../src/protocol/versions.ts";

// The build contract's record, as the check run and the generated entry fill it.
const c = contract();
afterEach(() => {
  delete c.schemas;
  delete c.recordSchemas;
});

let built = 0;
function defineAll(): Tool[] {
  return [
    tool({
      name: "full",
      title: "Full",
      description: "every field",
      input: v.object({ q: v.pipe(v.string(), v.maxLength(9)), n: v.optional(v.number(), 3) }),
      output: v.object({ hits: v.array(v.string()) }),
      annotations: { readOnlyHint: true, title: "x" },
      icons: [{ src: "https://example.com/i.png", mimeType: "image/png" }],
      meta: { "example.com/k": 1 },
      run: () => ({ hits: [] }),
    }),
    tool({
      name: "lazy",
      description: "functions",
      input: () => (built++, v.object({ id: v.string() })),
      output: () => v.array(v.number()),
      run: () => [1],
    }),
    tool({ name: "plain", description: "no schemas", run: () => "x" }),
  ];
}

test("recorded tools list byte-identically to converted ones in every version, without converting or parsing", () => {
  const plain = defineAll();
  // A build records in a fresh process, and the executable replays in another: each starts counting
  // definitions of a name at 0.
  resetDefinitionCounts();
  c.schemas = new Map<string, unknown>();
  c.recordSchemas = true;
  defineAll();
  const texts = c.schemas;
  expect([...texts.values()].every((x) => typeof x === "string")).toBe(true);
  expect(texts.size).toBe(4);
  delete c.recordSchemas;

  built = 0;
  resetDefinitionCounts();
  const recorded = defineAll();
  expect(built).toBe(0); // the input function was not called: its JSON Schema came from the record
  for (const f of FEATURES.values()) {
    for (let i = 0; i < plain.length; i++)
      expect(projectToolJson(recorded[i]!, f)).toBe(JSON.stringify(projectTool(plain[i]!, f)));
  }
  // Reading the schema parses the text: the same object as converting gives.
  expect(recorded[0]!.inputSchema).toEqual(plain[0]!.inputSchema);
  expect(recorded[1]!.outputSchema).toEqual(plain[1]!.outputSchema);
  expect(built).toBe(0);
});

test("a record belongs to one definition: two tools of one name, or a schema whose fields changed, do not take each other's", () => {
  resetDefinitionCounts();
  c.schemas = new Map<string, unknown>();
  c.recordSchemas = true;
  const define = (idType: "number" | "string") => [
    tool({
      name: "search",
      description: "v1",
      input: () => v.object({ query: v.string(), limit: v.number() }),
      run: () => 1,
    }),
    tool({ name: "search", description: "v2", input: () => v.object({ q: v.string() }), run: () => 1 }),
    tool({
      name: "get",
      description: "by id",
      input: v.object({ id: idType === "number" ? v.number() : v.string() }),
      run: () => 1,
    }),
  ];
  define("number");
  delete c.recordSchemas;
  resetDefinitionCounts();
  const [, second, get] = define("string");
  expect(Object.keys(second!.inputSchema.properties as object)).toEqual(["q"]);
  // The record of get was made with id: number; this definition has id: string, so it is converted afresh.
  expect((get!.inputSchema.properties as Record<string, { type: string }>).id!.type).toBe("string");
});

test("an executable whose tools differ from its build's: an unconvertible schema the build never saw fails at its first read, saying what to change", () => {
  resetDefinitionCounts();
  // Replaying an empty record: the build's check run defined no tool named "when".
  c.schemas = new Map<string, unknown>();
  const when = tool({
    name: "when",
    description: "a date input, which JSON Schema cannot carry",
    input: v.object({ d: v.date() }),
    run: () => "x",
  });
  let e: unknown;
  try {
    void when.inputSchema;
  } catch (x) {
    e = x;
  }
  expect(e).toBeInstanceOf(Error);
  expect((e as Error).name).toBe("ToolDefinitionError");
  expect((e as Error).message).toContain('tool "when"');
  expect((e as Error).message).toContain(
    'this executable\'s build recorded no JSON Schema for this definition of "when"',
  );
  expect((e as Error).message).toContain("define the same tools in both, so that the build checks them");
});
