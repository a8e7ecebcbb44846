// upstreamContent() in a script-style server (test/fixtures/upstreams/content-hub.ts) fronting the SDK v1 content
// server over stdio, driven by the official SDK v1 client: the upstream's resources/updated (for a URI our client
// subscribed to), resources/list_changed and prompts/list_changed reach our client, and the new items are served.
import { afterEach, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { pumpLines, stderrLines } from "./lines.ts";

const HUB = resolve(ROOT, "test/fixtures/upstreams/content-hub.ts");
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => {});
});

/** Resolves with the first notification `schema` matches, bounded by 10 s. */
function next<T>(client: Client, schema: Parameters<Client["setNotificationHandler"]>[0]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no ${String((schema as { shape?: { method?: { value?: string } } }).shape?.method?.value)} within 10 s`)), 10_000);
    client.setNotificationHandler(schema, async (n) => {
      clearTimeout(t);
      resolve(n as T);
    });
  });
}

test("SDK v1 client in front of upstreamContent: resources/updated, resources/list_changed and prompts/list_changed are relayed", async () => {
  const transport = new StdioClientTransport({ command: BUN, args: [HUB], stderr: "pipe" });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new Client({ name: "v1-client", version: "1.0.0" });
  await client.connect(transport);
  closers.push(() => client.close());
  const caps = client.getServerCapabilities()!;
  expect(caps.resources).toMatchObject({ subscribe: true, listChanged: true });
  expect(caps.prompts).toMatchObject({ listChanged: true });

  // A subscribed URI: the subscription reaches the upstream, and its resources/updated comes back, URI as the upstream has it.
  await client.subscribeResource({ uri: "docs://readme" });
  await stderr.next(/^\[v1\] subscribed docs:\/\/readme$/);
  const updated = next<{ params: { uri: string } }>(client, ResourceUpdatedNotificationSchema);
  await client.callTool({ name: "touch", arguments: {} });
  expect((await updated).params.uri).toBe("docs://readme");

  const listChanged = next(client, ResourceListChangedNotificationSchema);
  await client.callTool({ name: "add_resource", arguments: {} });
  await listChanged;
  expect((await client.listResources()).resources.map((r) => r.uri)).toContain("docs://changelog");
  expect((await client.readResource({ uri: "docs://changelog" })).contents[0]).toMatchObject({ text: "v2" });

  const promptsChanged = next(client, PromptListChangedNotificationSchema);
  await client.callTool({ name: "add_prompt", arguments: {} });
  await promptsChanged;
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain("later");
  expect((await client.getPrompt({ name: "later" })).messages[0]!.content).toEqual({ type: "text", text: "later" });
});
