/** @module docs/servers.md: the hub script run from source over an upstream it connects to, and the config hub built with its upstream, both driven by the official SDK client. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { BUN } from "../helpers/proc.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { mcpbin } from "../cli/run-cli.ts";
import { buildExample, removeExamples, writeExample } from "./examples.ts";

setDefaultTimeout(120_000);
const clients: Client[] = [];
let notesBin = "";
beforeAll(async () => {
  ({ bin: notesBin } = await buildExample("servers", ["upstream.ts", "--outfile", "dist/notes"], "dist/notes"));
});
afterAll(async () => {
  for (const c of clients) await c.close();
  removeExamples();
});

async function client(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ c: Client; stderr: () => string }> {
  const t = new StdioClientTransport({
    command,
    args,
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stderr: "pipe",
  });
  let err = "";
  t.stderr?.on("data", (d) => (err += String(d)));
  tap(t as unknown as Transport);
  const c = new Client({ name: "guide-reader", version: "1.0.0" });
  await c.connect(t);
  clients.push(c);
  return { c, stderr: () => err };
}

test("hub.ts: uses the upstream as a client, then serves its tool beside the upstream's (prefixed, delete_* left out) and its content", async () => {
  const dir = writeExample("servers");
  const { c, stderr } = await client(BUN, [join(dir, "hub.ts")], dir);
  expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["hello", "notes__search"]);
  expect((await c.callTool({ name: "notes__search", arguments: { q: "bun" } })).content).toEqual([
    { type: "text", text: "1 note mentions bun" },
  ]);
  expect((await c.readResource({ uri: "repo://readme" })).contents).toEqual([
    { uri: "repo://readme", mimeType: "text/markdown", text: "# Notes" },
  ]);
  expect((await c.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages[0]!.content).toEqual({
    type: "text",
    text: "Say hello to Ada",
  });
  expect(stderr()).toContain('2 tools upstream; search said [{"type":"text","text":"1 note mentions bun"}]');
  expect(stderr()).toContain("progress 1");
});

test("the config hub: built once, it starts its upstream from NOTES_SERVER; docs without DOCS_KEY is left out", async () => {
  const { dir, bin } = await buildExample("hub", ["--config", "mcpbin.config.ts"], "dist/hub");
  const listed = await mcpbin(["list", "--config", "mcpbin.config.ts"], dir);
  expect(listed.stdout).toContain("hello");
  const { c, stderr } = await client(bin, [], dir, { NOTES_SERVER: notesBin });
  expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(["hello", "search"]);
  expect((await c.callTool({ name: "search", arguments: { q: "x" } })).content).toEqual([
    { type: "text", text: "1 note mentions x" },
  ]);
  expect((await c.callTool({ name: "hello", arguments: {} })).content).toEqual([
    { type: "text", text: "hello from the hub" },
  ]);
  expect(stderr()).toContain("DOCS_KEY");
});
