// A 16-tool server shaped like a real one (issue 20's benchmark row): echo, add, a sleeping tool, big results, structured output, progress, logging, one raw JSON Schema inputSchema.
import * as v from "valibot";
import { serve, tool, toolResult, textContent, resourceLink } from "mcpbin";

const BIG = "x".repeat(64 * 1024);
const ROWS = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ["a", "b"], score: i / 7 }));

const tools = [
  // The two tools the harness calls (add_numbers for every call, echo for the final non-ASCII check).
  tool({
    name: "add_numbers",
    description: "Add two numbers",
    input: v.object({ x: v.number(), y: v.number() }),
    run: ({ x, y }) => x + y,
  }),
  tool({ name: "echo", description: "Echo text", input: v.object({ text: v.string() }), run: ({ text }) => text }),
  tool({
    name: "sleep",
    description: "Wait for a number of milliseconds, reporting progress, then say so.",
    input: v.object({ ms: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60_000)) }),
    annotations: { readOnlyHint: true },
    run: async ({ ms }, ctx) => {
      ctx.progress(0, ms);
      await Bun.sleep(ms);
      ctx.progress(ms, ms);
      return `slept ${ms} ms`;
    },
  }),
  tool({
    name: "big_text",
    description: "Return 64 KiB of text.",
    annotations: { readOnlyHint: true },
    run: () => BIG,
  }),
  tool({
    name: "big_table",
    description: "Return a table of 200 rows as structured content.",
    output: v.object({
      rows: v.array(v.object({ id: v.number(), name: v.string(), tags: v.array(v.string()), score: v.number() })),
    }),
    annotations: { readOnlyHint: true },
    run: () => ({ rows: ROWS }),
  }),
  tool({
    name: "search_issues",
    title: "Search issues",
    description: "Search issues by text, with paging, sorting and a state filter.",
    input: v.object({
      query: v.pipe(v.string(), v.minLength(1), v.maxLength(500)),
      state: v.optional(v.picklist(["open", "closed", "all"]), "open"),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
      sort: v.optional(v.picklist(["created", "updated", "comments"]), "updated"),
      labels: v.optional(v.array(v.string()), []),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    run: ({ query, state, limit }) => ({ query, state, limit, items: [] }),
  }),
  tool({
    name: "create_issue",
    description: "Create an issue with a title, a body and labels.",
    input: v.object({
      title: v.pipe(v.string(), v.minLength(1)),
      body: v.optional(v.string(), ""),
      labels: v.optional(v.array(v.string()), []),
    }),
    output: v.object({ number: v.number(), url: v.string() }),
    annotations: { destructiveHint: false },
    run: ({ title }) => ({ number: title.length, url: `https://example.com/issues/${title.length}` }),
  }),
  tool({
    name: "get_weather",
    title: "Weather",
    description: "Current weather for a city (made up).",
    input: v.object({ city: v.string(), units: v.optional(v.picklist(["metric", "imperial"]), "metric") }),
    output: v.object({ city: v.string(), temperature: v.number(), conditions: v.string() }),
    run: ({ city, units }) => ({ city, temperature: units === "metric" ? 21 : 70, conditions: "sunny" }),
  }),
  // The raw JSON Schema tool: arguments validated against `inputSchema` as written.
  tool({
    name: "query_records",
    description: "Query records by filter (raw JSON Schema input).",
    inputSchema: {
      type: "object",
      properties: {
        table: { type: "string", enum: ["users", "orders", "events"] },
        where: { type: "object", additionalProperties: { type: ["string", "number", "boolean"] } },
        limit: { type: "integer", minimum: 1, maximum: 1000, default: 50 },
        fields: { type: "array", items: { type: "string" }, uniqueItems: true },
      },
      required: ["table"],
      additionalProperties: false,
    },
    run: (args) => ({ table: (args as { table: string }).table, rows: [] }),
  }),
  tool({
    name: "log_message",
    description: "Send a log message to the client at a level.",
    input: v.object({ level: v.picklist(["debug", "info", "warning", "error"]), message: v.string() }),
    run: ({ level, message }, ctx) => {
      ctx.log(level, message, "bench");
      return "logged";
    },
  }),
  tool({
    name: "links",
    description: "Return a text block and two resource links.",
    run: () =>
      toolResult({
        content: [
          textContent("two documents"),
          resourceLink({ uri: "https://example.com/a.pdf", name: "a.pdf", mimeType: "application/pdf" }),
          resourceLink({ uri: "https://example.com/b.pdf", name: "b.pdf", mimeType: "application/pdf" }),
        ],
      }),
  }),
  tool({
    name: "fail",
    description: "Always fails with an error the client sees as isError.",
    run: () => {
      throw new Error("this tool always fails");
    },
  }),
  tool({
    name: "slugify",
    description: "Turn a title into a URL slug.",
    input: v.object({ text: v.string(), maxLength: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 80) }),
    run: ({ text, maxLength }) =>
      text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, maxLength),
  }),
  tool({
    name: "days_between",
    description: "Days from one ISO date to another.",
    input: v.object({ from: v.pipe(v.string(), v.isoDate()), to: v.pipe(v.string(), v.isoDate()) }),
    run: ({ from, to }) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000),
  }),
  tool({
    name: "random_id",
    description: "A random UUID.",
    annotations: { readOnlyHint: true, idempotentHint: false },
    run: () => crypto.randomUUID(),
  }),
  tool({
    name: "now",
    description: "The current time as ISO 8601 text.",
    input: v.object({ timeZone: v.optional(v.string(), "UTC") }),
    run: ({ timeZone }) => `${new Date().toISOString()} (${timeZone})`,
  }),
];

await serve({ name: "bench-realistic", version: "1.0.0", tools });
