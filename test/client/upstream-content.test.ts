// Change notifications of an upstream's content reach our client: upstreamContent() in a script-style server
// (test/fixtures/upstreams/content-hub.ts) and `mcpbin proxy`, each in front of the SDK v1 content server, directly
// (legacy: notifications on the session) or behind an inner `mcpbin proxy` (2026-07-28: on listen streams the hub
// opens). Driven by the official SDK v1 client: resources/updated (for a URI it subscribed to),
// resources/list_changed and prompts/list_changed arrive, and the new items are served.
import { afterEach, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { pumpLines, stderrLines } from "./lines.ts";

const HUB = resolve(ROOT, "test/fixtures/upstreams/content-hub.ts");
const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const V1 = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-content.ts");
const dir = mkdtempSync(join(tmpdir(), "mcpbin-upstream-content-"));
const file = (name: string, servers: unknown) => {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify({ mcpServers: servers }));
  return f;
};
/** `mcpbin proxy` in front of the SDK v1 content server: a 2026-07-28 server to whoever speaks it. */
const INNER = [BUN, MCPBIN, "proxy", "--servers", file("inner.json", { v1: { command: BUN, args: [V1] } })];
const HUBS: [string, string[]][] = [
  ["upstreamContent(), legacy upstream", [BUN, HUB]],
  ["upstreamContent(), 2026-07-28 upstream", [BUN, HUB, ...INNER]],
  [
    "mcpbin proxy, 2026-07-28 upstream",
    [BUN, MCPBIN, "proxy", "--servers", file("outer.json", { v1: { command: INNER[0], args: INNER.slice(1) } })],
  ],
];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => {});
});

/** Resolves with the first notification `schema` matches, bounded by 10 s. */
function next<T>(client: Client, schema: Parameters<Client["setNotificationHandler"]>[0]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(
      () =>
        reject(
          new Error(
            `no ${String((schema as { shape?: { method?: { value?: string } } }).shape?.method?.value)} within 10 s`,
          ),
        ),
      10_000,
    );
    client.setNotificationHandler(schema, async (n) => {
      clearTimeout(t);
      resolve(n as T);
    });
  });
}

test.each(HUBS)(
  "%s: resources/updated, resources/list_changed and prompts/list_changed reach the SDK v1 client",
  async (_, [command, ...args]) => {
    const transport = new StdioClientTransport({ command: command!, args, stderr: "pipe" });
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
    await stderr.next(/\[v1\] subscribed docs:\/\/readme$/);
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
  },
);
