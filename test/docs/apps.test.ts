/** @module docs/apps.md: its server and no-script view built into one executable, read and called by the official SDK client declaring the MCP Apps extension. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { tmpdir } from "node:os";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
let bin = "";
const clients: Client[] = [];
beforeAll(async () => {
  ({ bin } = await buildExample("apps", ["server.ts", "--outfile", "dist/weather"], "dist/weather"));
});
afterAll(async () => {
  for (const c of clients) await c.close();
  removeExamples();
});

async function client(extension: boolean): Promise<Client> {
  const t = new StdioClientTransport({ command: bin, args: [], cwd: tmpdir(), stderr: "pipe" });
  tap(t as unknown as Transport, { open: extension });
  const c = new Client(
    { name: "guide-host", version: "1.0.0" },
    { capabilities: extension ? ({ extensions: UI } as never) : {} },
  );
  await c.connect(t);
  clients.push(c);
  return c;
}

test("a host with the extension: both tools, linked to the view, which is the bundled no-script document", async () => {
  const c = await client(true);
  const { tools } = await c.listTools();
  expect(tools.map((t) => [t.name, (t._meta as any)?.ui])).toEqual([
    ["show_weather", { resourceUri: "ui://weather/dashboard", visibility: ["model", "app"] }],
    ["temperature", { resourceUri: "ui://weather/dashboard", visibility: ["app"] }],
  ]);
  const { contents } = await c.readResource({ uri: "ui://weather/dashboard" });
  const item = contents[0] as { mimeType: string; text: string; _meta?: any };
  expect(item.mimeType).toBe("text/html;profile=mcp-app");
  expect(item.text).toContain('data-mcp-tool="temperature"');
  expect(item.text).toContain("<script"); // the no-script runtime, inlined
  expect(item._meta?.ui).toMatchObject({ csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true });
  const r: any = await c.callTool({ name: "temperature", arguments: { city: "Lisbon" } });
  expect(r.structuredContent).toEqual({ city: "Lisbon", tempC: 16 });
});

test("a text-only client: the view-only tool is neither listed nor callable; the other still answers in text", async () => {
  const c = await client(false);
  expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["show_weather"]);
  const r: any = await c.callTool({ name: "show_weather", arguments: { city: "Oslo" } });
  expect(JSON.parse(r.content[0].text)).toEqual({ city: "Oslo", tempC: 21 });
  await expect(c.callTool({ name: "temperature", arguments: { city: "Oslo" } })).rejects.toThrow(/Unknown tool/);
});
