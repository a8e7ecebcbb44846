/** @module docs/tools.md: its server, joined from the guide's parts, built once and driven by the official SDK clients v1 and v2. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
let bin = "";
let c1: ClientV1;
beforeAll(async () => {
  ({ bin } = await buildExample("tools", ["server.ts", "--outfile", "dist/tools-guide"], "dist/tools-guide"));
  const t = new StdioV1({ command: bin, args: [], stderr: "pipe" });
  tap(t as unknown as Transport);
  c1 = new ClientV1({ name: "guide-reader", version: "1.0.0" });
  await c1.connect(t);
});
afterAll(async () => {
  await c1?.close();
  removeExamples();
});

const text = (r: any) => r.content.map((b: any) => b.text).join("|");

test("every tool of the guide is listed; the lazy and the Standard Schema inputs are advertised", async () => {
  const { tools } = await c1.listTools();
  expect(tools.map((t) => t.name)).toEqual([
    "steps",
    "fail",
    "report",
    "weather",
    "get_issue",
    "search",
    "sum",
    "countdown",
  ]);
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  expect(byName.get_issue!.inputSchema).toMatchObject({
    type: "object",
    properties: { id: { type: "string" } },
    required: ["id"],
  });
  expect(byName.search!.inputSchema.properties).toMatchObject({
    q: { type: "string", minLength: 1 },
    limit: { default: 5 },
  });
  expect(byName.sum!.outputSchema).toMatchObject({ type: "object", properties: { sum: { type: "number" } } });
  expect(byName.weather!.outputSchema).toMatchObject({ required: ["city", "temperature"] });
});

test("return values: an array of strings is one text block; a throw is an isError result with its message", async () => {
  expect(await c1.callTool({ name: "steps", arguments: { recipe: "cake" } })).toEqual({
    content: [{ type: "text", text: "1. open the cake box\n2. wait" }],
  });
  const failed = await c1.callTool({ name: "fail", arguments: {} });
  expect(failed).toEqual({ content: [{ type: "text", text: "the printer is on fire" }], isError: true });
});

test("toolResult: every content constructor, structured content and _meta reach the client", async () => {
  const r: any = await c1.callTool({ name: "report", arguments: {} });
  expect(r.content.map((b: any) => b.type)).toEqual([
    "text",
    "image",
    "audio",
    "resource_link",
    "resource",
    "resource",
  ]);
  expect(r.content[1]).toEqual({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
  expect(r.content[4].resource).toEqual({ uri: "note:///a", text: "# A", mimeType: "text/markdown" });
  expect(r.structuredContent).toEqual({ ok: true });
  expect(r._meta).toEqual({ "x.com/trace": "t-1" });
});

test("structured output is parsed by its schema: the unknown key is stripped", async () => {
  const r: any = await c1.callTool({ name: "weather", arguments: { city: "Oslo" } });
  expect(r.structuredContent).toEqual({ city: "Oslo", temperature: 21 });
  expect(JSON.parse(r.content[0].text)).toEqual({ city: "Oslo", temperature: 21 });
});

test("the lazy schema, zod and arktype tools answer; a bad argument is an isError result naming the field", async () => {
  expect(((await c1.callTool({ name: "get_issue", arguments: { id: "7" } })) as any).structuredContent).toBeUndefined();
  expect(text(await c1.callTool({ name: "get_issue", arguments: { id: "7" } }))).toBe('{"id":"7","state":"open"}');
  expect(text(await c1.callTool({ name: "search", arguments: { q: "lamp" } }))).toBe("5 results for lamp");
  expect(((await c1.callTool({ name: "sum", arguments: { a: 2, b: 3 } })) as any).structuredContent).toEqual({
    sum: 5,
  });
  const bad: any = await c1.callTool({ name: "search", arguments: { q: "" } });
  expect(bad.isError).toBe(true);
  expect(bad.content[0].text).toContain("q:");
});

test("countdown reports progress to the v2 client and names it", async () => {
  const t = new StdioV2({ command: bin, args: [], stderr: "pipe" });
  tap(t as unknown as Transport);
  const c2 = new ClientV2({ name: "guide-reader-v2", version: "2.0.0" });
  await c2.connect(t);
  try {
    const seen: number[] = [];
    const r = await c2.callTool(
      { name: "countdown", arguments: { n: 3 } },
      { onprogress: (p: { progress: number }) => seen.push(p.progress) },
    );
    expect(r.content).toEqual([{ type: "text", text: "lift-off, guide-reader-v2" }]);
    expect(seen).toEqual([1, 2, 3]);
  } finally {
    await c2.close();
  }
});
