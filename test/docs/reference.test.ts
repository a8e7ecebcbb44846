/** @module docs/reference.md: the project-style example listed, called and built as the guide says, then driven by the official SDK client. */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { mcpbin } from "../cli/run-cli.ts";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
afterAll(removeExamples);

test("the project: list and call see the filtered tools; build writes dist/my-server, which serves them", async () => {
  const { dir, bin } = await buildExample("project", [], "dist/my-server");
  const list = await mcpbin(["list", "--json"], dir);
  expect(list.code).toBe(0);
  expect(JSON.parse(list.stdout).tools.map((t: { name: string }) => t.name)).toEqual(["search", "version"]);
  const call = await mcpbin(["call", "search", '{"q": "mcp"}'], dir);
  expect(call).toMatchObject({ code: 0, stdout: "mcp\n" });

  const t = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  tap(t as unknown as Transport);
  const c = new Client({ name: "guide-reader", version: "1.0.0" });
  await c.connect(t);
  try {
    expect((await c.listTools()).tools.map((x) => x.name)).toEqual(["search", "version"]);
    expect((await c.callTool({ name: "search", arguments: { q: "b" } })).content).toEqual([
      { type: "text", text: "bun\nvalibot" },
    ]);
  } finally {
    await c.close();
  }
});
