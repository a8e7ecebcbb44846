/** @module docs/middleware.md: its server (timing middleware, rateLimit, maskErrors, cacheResults, a changed tool set) built once and driven by the official SDK client. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
let c: Client;
let stderr = "";
beforeAll(async () => {
  const { bin } = await buildExample("middleware", ["server.ts", "--outfile", "dist/hub"], "dist/hub");
  const t = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  t.stderr?.on("data", (d) => (stderr += String(d)));
  tap(t as unknown as Transport);
  c = new Client({ name: "guide-reader", version: "1.0.0" });
  await c.connect(t);
});
afterAll(async () => {
  await c?.close();
  removeExamples();
});

const text = (r: any): string => r.content[0].text;

test("the tool set: admin added but disabled, old removed", async () => {
  expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["search"]);
  await expect(c.callTool({ name: "admin", arguments: {} })).rejects.toThrow(/Unknown tool/);
});

test("cacheResults answers a read-only tool's repeat from its cache; the timing middleware logs each request", async () => {
  const first = text(await c.callTool({ name: "search", arguments: { q: "lamp" } }));
  await Bun.sleep(5);
  expect(text(await c.callTool({ name: "search", arguments: { q: "lamp" } }))).toBe(first);
  expect(stderr).toContain("tools/call guide-reader");
});

test("maskErrors hides an Error's message and keeps a ToolError's", async () => {
  const masked: any = await c.callTool({ name: "search", arguments: { q: "boom" } });
  expect(masked).toMatchObject({
    isError: true,
    content: [{ type: "text", text: "Tool search failed: internal error" }],
  });
  const told: any = await c.callTool({ name: "search", arguments: { q: "" } });
  expect(told).toMatchObject({ isError: true, content: [{ type: "text", text: "give a word to search for" }] });
});

test("rateLimit: the 61st call in a minute is refused with a retry hint", async () => {
  let last: any;
  for (let i = 0; i < 61; i++) last = await c.callTool({ name: "search", arguments: { q: `w${i}` } });
  expect(last.isError).toBe(true);
  expect(text(last)).toStartWith("Rate limit exceeded: at most 60 tool calls per minute");
});
