// The results test server: one tool per return-value mapping; payload JSON options come from RESULTS_JSON (a JSON object).
import * as v from "valibot";
import { embeddedResource, imageContent, serve, textContent, tool, toolResult } from "../../src/index.ts";

const cyclic: Record<string, unknown> = { name: "loop" };
cyclic.self = cyclic;

const tools = [
  tool({ name: "plain_string", description: "", run: () => "héllo\nwörld" }),
  tool({ name: "plain_object", description: "", run: () => ({ b: [1, 2], s: "x" }) }),
  tool({ name: "plain_strings", description: "", run: () => ["one", "two"] }),
  tool({ name: "plain_undefined", description: "", run: () => undefined }),
  tool({ name: "plain_async", description: "", run: async () => 7 }),
  tool({
    name: "look_alike",
    description: "",
    run: () => ({ content: [{ type: "text", text: "not a result" }], isError: true }),
  }),
  tool({
    name: "special",
    description: "",
    run: () => ({
      n: 2n ** 64n,
      small: 5n,
      nan: NaN,
      inf: -Infinity,
      u: undefined,
      d: new Date(0),
      m: new Map([["k", 1]]),
      s: new Set([1]),
      t: new Uint8Array([9]),
    }),
  }),
  tool({ name: "cycle", description: "", run: () => ({ top: cyclic }) }),
  tool({
    name: "throws",
    description: "",
    run: () => {
      throw new Error("disk full");
    },
  }),
  tool({
    name: "bad_base64",
    description: "",
    run: () => toolResult({ content: [imageContent("not base64!", "image/png")] }),
  }),
  tool({ name: "sc_only", description: "", run: () => toolResult({ structuredContent: { a: 1, when: new Date(0) } }) }),
  tool({
    name: "sc_with_content",
    description: "",
    run: () => toolResult({ content: [textContent("summary")], structuredContent: { a: 1 } }),
  }),
  tool({
    name: "sc_error",
    description: "",
    run: () => toolResult({ structuredContent: { code: "E42" }, isError: true }),
  }),
  tool({
    name: "error_with_content",
    description: "",
    run: () =>
      toolResult({ content: [textContent("quota exceeded")], structuredContent: { code: "E42" }, isError: true }),
  }),
  tool({
    name: "result_meta",
    description: "",
    run: () =>
      toolResult({ content: [embeddedResource({ uri: "mem://r", blob: "AAEC" })], meta: { "example.com/k": "v" } }),
  }),
  tool({
    name: "raw_out",
    description: "raw outputSchema; arguments.ok decides",
    input: v.object({ ok: v.boolean() }),
    outputSchema: {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } },
      },
      required: ["items"],
    },
    run: ({ ok }) => ({ items: ok ? [{ id: 1 }] : [{ id: 1 }, { id: "two" }] }),
  }),
  tool({
    name: "out_bigint",
    description: "structured content goes through payload JSON too",
    output: v.object({ n: v.string(), at: v.string() }),
    run: () => ({ n: 10n, at: new Date(0) }) as never,
  }),
  tool({
    name: "out_missing",
    description: "",
    output: v.object({ a: v.number() }),
    run: () => toolResult({ content: [textContent("no structured")] }),
  }),
  tool({
    name: "out_result",
    description: "",
    output: v.object({ a: v.number() }),
    run: () => toolResult({ structuredContent: { a: 1, extra: true } }),
  }),
  tool({
    name: "out_nested_bad",
    description: "",
    output: v.object({ list: v.array(v.object({ x: v.number() })) }),
    run: () => ({ list: [{ x: 1 }, { x: "2" }] }) as never,
  }),
  tool({
    name: "verbatim_in",
    description: "raw 2020-12 inputSchema sent as written",
    verbatimSchemas: true,
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { n: { $anchor: "num", type: "integer" } },
      properties: { n: { $ref: "#/$defs/n" } },
      required: ["n"],
    },
    run: (a) => a,
  }),
  tool({
    name: "raw_in",
    description: "raw inputSchema",
    inputSchema: {
      type: "object",
      properties: { n: { type: "integer", minimum: 1 } },
      required: ["n"],
      additionalProperties: false,
    },
    run: (a) => a,
  }),
];

await serve({
  name: "results",
  version: "1.0.0",
  tools,
  json: process.env.RESULTS_JSON ? JSON.parse(process.env.RESULTS_JSON) : undefined,
});
