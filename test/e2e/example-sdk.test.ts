// End to end: the compiled toolkit example, launched by absolute path by the official SDK v1 client.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { isAbsolute } from "node:path";
import { compileFixture } from "../helpers/proc.ts";

let bin: string;
let client: Client;
let transport: StdioClientTransport;

beforeAll(async () => {
  bin = await compileFixture("examples/toolkit/server.ts", "toolkit");
  transport = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transport);
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load
afterAll(async () => {
  await client?.close();
});

test("the executable is launched by absolute path and negotiates the SDK's version", () => {
  expect(isAbsolute(bin)).toBe(true);
  expect(client.getServerVersion()).toEqual({
    name: "toolkit",
    title: "Text, unit and date toolkit",
    version: "1.0.0",
  });
  expect(client.getInstructions()).toContain("deterministic helpers");
});

test("tools/list shows every tool with an object inputSchema", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(["text_stats", "slugify", "convert_units", "days_between", "hash_text"]);
  for (const t of tools) {
    expect(t.inputSchema.type).toBe("object");
    expect(JSON.stringify(t.inputSchema)).not.toContain("$schema");
  }
  const slug = tools.find((t) => t.name === "slugify")!;
  expect(slug.inputSchema.required).toEqual(["text"]);
  expect(tools.find((t) => t.name === "text_stats")!.outputSchema?.type).toBe("object");
});

test("each tool answers through the SDK client", async () => {
  const stats = await client.callTool({ name: "text_stats", arguments: { text: "one two\nthree" } });
  expect(stats.structuredContent).toEqual({ words: 3, characters: 13, lines: 2 });
  expect(JSON.parse((stats.content as any)[0].text)).toEqual({ words: 3, characters: 13, lines: 2 });

  const slug = await client.callTool({ name: "slugify", arguments: { text: "Héllo, Wörld!" } });
  expect(slug.content).toEqual([{ type: "text", text: "hello-world" }]);

  const conv = await client.callTool({ name: "convert_units", arguments: { value: 100, from: "C", to: "F" } });
  expect(conv.content).toEqual([{ type: "text", text: "100 C = 212 F" }]);

  const days = await client.callTool({ name: "days_between", arguments: { from: "2024-02-28", to: "2024-03-01" } });
  expect((days.content as any)[0].text).toBe("2 days from 2024-02-28 to 2024-03-01 (2024-03-01 is a Friday)");

  const hash = await client.callTool({ name: "hash_text", arguments: { text: "abc" } });
  expect(hash.content).toEqual([
    { type: "text", text: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
  ]);
});

test("a tool error and a bad argument come back as isError results the model can read", async () => {
  const mismatch = await client.callTool({ name: "convert_units", arguments: { value: 1, from: "kg", to: "m" } });
  expect(mismatch.isError).toBe(true);
  expect((mismatch.content as any)[0].text).toContain("cannot convert mass (kg) to length (m)");
  const bad = await client.callTool({ name: "days_between", arguments: { from: "yesterday", to: "2024-01-01" } });
  expect(bad.isError).toBe(true);
  expect((bad.content as any)[0].text).toStartWith("Invalid arguments for tool days_between:\nfrom: ");
});
