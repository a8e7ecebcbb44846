// mcpbin proxy passing resources, templates, prompts and asks through: an SDK v1 upstream (stdio, legacy:
// real server → client requests), an SDK v2 upstream (Streamable HTTP, 2026-07-28) and the compiled ask
// fixture (an mcpbin executable: 2026-07-28 with the proxy, asking by input_required), fronted by one proxy
// and driven by the official SDK v1 client (legacy) and the SDK v2 client (2026-07-28). Several upstreams,
// so URIs are rewritten (`v1+docs://…`). Every response a client receives is validated against the official
// schema of its version (tap).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  ElicitRequestSchema,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { resolve } from "node:path";
import { BUN, compileFixture, ROOT } from "../helpers/proc.ts";
import { HttpProcess, validatingFetch } from "../http/helpers.ts";
import { pumpLines, stderrLines } from "./lines.ts";
import { tap } from "./tap.ts";
import { closedAfterEach, serversFile } from "./front.ts";

const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const V1 = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-content.ts");
const V2 = resolve(ROOT, "test/fixtures/upstreams/sdk-v2-content-http.ts");
type Msg = Record<string, any>;

let servers: string;
let v2: HttpProcess;
const closers = closedAfterEach();
beforeAll(async () => {
  let askBin: string;
  [askBin, v2] = await Promise.all([
    compileFixture("test/fixtures/servers/ask.ts", "proxy-ask-upstream"),
    HttpProcess.start([BUN, V2], { args: [] }),
  ]);
  servers = serversFile(
    { v1: { command: BUN, args: [V1] }, v2: { url: v2.url }, asks: { command: askBin, include: ["confirm_delete"] } },
    "mcpbin-proxy-content-",
  );
}, 60_000);
afterAll(async () => {
  for (const c of closers.splice(0)) await c();
  v2?.kill();
});

const text = (r: Msg) => (r.content as { text: string }[])[0]!.text;
const asked: Msg[] = [];

/** The answers our client gives: a name or an audience or a confirmation, a sampled summary, one root. */
function answerElicit(params: Msg): Msg {
  asked.push(params);
  const props = Object.keys(params.requestedSchema?.properties ?? {});
  if (props.includes("name")) return { action: "accept", content: { name: "Ada" } };
  if (props.includes("audience")) return { action: "accept", content: { audience: "board" } };
  return { action: "accept", content: { confirm: true } };
}
const SAMPLE = {
  role: "assistant",
  content: { type: "text", text: "one file removed" },
  model: "test-model",
  stopReason: "endTurn",
};

/** `mcpbin proxy --servers …` under the SDK v1 client (2025-11-25), with or without the ask capabilities. */
async function v1Front(capable: boolean) {
  const transport = new StdioV1({ command: BUN, args: [MCPBIN, "proxy", "--servers", servers], stderr: "pipe" });
  const seen = tap(transport as never);
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new ClientV1(
    { name: "v1-front", version: "1.0.0" },
    { capabilities: capable ? { elicitation: {}, sampling: {}, roots: {} } : {} },
  );
  if (capable) {
    client.setRequestHandler(ElicitRequestSchema, async (r) => answerElicit(r.params) as never);
    client.setRequestHandler(CreateMessageRequestSchema, async () => SAMPLE as never);
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  }
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, seen, stderr };
}

function v2Client() {
  const c = new ClientV2(
    { name: "v2-front", version: "2.0.0" },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: "2026-07-28" } as never },
    },
  );
  c.setRequestHandler("elicitation/create", async (r: Msg) => answerElicit(r.params) as never);
  c.setRequestHandler("sampling/createMessage", async () => SAMPLE as never);
  c.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  return c;
}

test("SDK v1 client → proxy: resources, templates and prompts through the URI rewrite; asks forwarded as requests; subscriptions and prompts/list_changed relayed", async () => {
  asked.length = 0;
  const { client, seen, stderr } = await v1Front(true);
  const caps = client.getServerCapabilities()!;
  expect(caps.resources).toMatchObject({ subscribe: true });
  expect(caps.prompts).toBeDefined();

  // Lists: every URI carries its upstream (reversible), every field kept.
  const { resources } = await client.listResources();
  expect(resources).toContainEqual({
    uri: "v1+docs://readme",
    name: "readme",
    mimeType: "text/markdown",
    description: "The readme",
  });
  expect(resources).toContainEqual({ uri: "v2+notes://today", name: "today", title: "Today", mimeType: "text/plain" });
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(["asks+vault://{name}", "v1+docs://pages/{n}"]);

  // Reads reach the upstream with its own URI; mimeType and _meta come back, the URI rewritten again.
  const readme = await client.readResource({ uri: "v1+docs://readme" });
  expect(readme.contents).toEqual([
    { uri: "v1+docs://readme", mimeType: "text/markdown", text: "# v1 readme", _meta: { "example.com/rev": 7 } },
  ]);
  expect((await client.readResource({ uri: "v1+docs://pages/3" })).contents).toEqual([
    { uri: "v1+docs://pages/3", mimeType: "text/plain", text: "page 3" },
  ]);
  // A 2026-07-28 upstream's read reaches 2025-11-25 without resultType and cache hints (the tap's closed schema refuses them).
  const today = await client.readResource({ uri: "v2+notes://today" });
  expect(today).toEqual({
    contents: [{ uri: "v2+notes://today", mimeType: "text/plain", text: "v2 notes", _meta: { "example.com/rev": 2 } }],
  });
  // A URI no upstream owns: not found (-32002 with data.uri at 2025-11-25), never empty contents.
  const missing = await client.readResource({ uri: "nobody+x://y" }).then(
    () => undefined,
    (e: Msg) => e,
  );
  expect(missing).toMatchObject({ code: -32002, data: { uri: "nobody+x://y" } });

  // Prompts are named like tools: two upstreams' `greet` become v1__greet and v2__greet, the others keep theirs; an embedded resource's URI is rewritten.
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name).sort()).toEqual(["briefing", "v1__greet", "v2__greet"]);
  expect(prompts.find((p) => p.name === "v1__greet")).toMatchObject({
    title: "Greeting",
    arguments: [{ name: "who", required: true }],
  });
  expect((await client.getPrompt({ name: "v2__greet", arguments: { who: "Ada" } })).messages).toEqual([
    { role: "user", content: { type: "text", text: "Hi Ada from v2" } },
  ]);
  const greet = await client.getPrompt({ name: "v1__greet", arguments: { who: "Ada" } });
  expect(greet.messages[0]!.content).toEqual({ type: "text", text: "Hello Ada" });
  expect((greet.messages[1]!.content as Msg).resource.uri).toBe("v1+docs://readme");
  // A tool's resource_link: rewritten too.
  expect((await client.callTool({ name: "link", arguments: {} })).content).toEqual([
    { type: "resource_link", uri: "v1+docs://readme", name: "readme", mimeType: "text/markdown" },
  ]);

  // Asks: the legacy upstream's elicitation/create during its call is a request to us; the 2026 upstream's
  // input_required rounds (tool, prompt, read) are requests to us too, answered and retried by the proxy.
  expect(text(await client.callTool({ name: "ask_name", arguments: {} }))).toBe("hello Ada");
  expect(text(await client.callTool({ name: "confirm_delete", arguments: { path: "/tmp/x" } }))).toBe(
    "deleted /tmp/x; summary: one file removed; model: test-model",
  );
  expect((await client.getPrompt({ name: "briefing" })).messages[0]!.content).toEqual({
    type: "text",
    text: "Write a briefing for the board audience.",
  });
  expect((await client.readResource({ uri: "asks+vault://gold" })).contents[0]).toMatchObject({
    uri: "asks+vault://gold",
    text: "the gold secret",
  });
  expect(asked.map((a) => a.message)).toEqual(["Your name?", "Delete /tmp/x?", "Who is the audience?", "Reveal gold?"]);

  // Subscriptions: subscribe reaches the upstream with its URI; its resources/updated comes back as ours.
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => void updated.push(n.params.uri));
  await client.subscribeResource({ uri: "v1+docs://readme" });
  await stderr.next(/^\[v1\] subscribed docs:\/\/readme$/);
  await client.callTool({ name: "touch", arguments: {} });
  await client.unsubscribeResource({ uri: "v1+docs://readme" });
  await stderr.next(/^\[v1\] unsubscribed docs:\/\/readme$/);
  expect(updated).toEqual(["v1+docs://readme"]);

  // An upstream's prompts/list_changed becomes ours, and the new prompt is listed and served.
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => resolve()),
  );
  await client.callTool({ name: "add_prompt", arguments: {} });
  await Promise.race([
    changed,
    Bun.sleep(10_000).then(() => Promise.reject(new Error("no notifications/prompts/list_changed in 10 s"))),
  ]);
  expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain("later");
  expect((await client.getPrompt({ name: "later" })).messages[0]!.content).toEqual({ type: "text", text: "later" });
  expect(seen.filter((s) => s.version === "2025-11-25").length).toBeGreaterThanOrEqual(14);
});

test("SDK v1 client without the capabilities: the upstream's ask gets -32601 and its call goes on", async () => {
  const { client } = await v1Front(false);
  const r = await client.callTool({ name: "ask_name", arguments: {} });
  expect(r.isError).toBe(true);
  expect(text(r)).toContain(
    "Method not found: elicitation/create (the client does not support elicitation: the client in front of this proxy did not declare it)",
  );
  // The 2026 upstream is told our client's capabilities and does not ask: its refusal is an isError result at 2025-11-25.
  const d = await client.callTool({ name: "confirm_delete", arguments: { path: "/tmp/y" } });
  expect(d.isError).toBe(true);
  expect(text(d)).toContain("the client does not support elicitation");
});

test("SDK v2 client (2026-07-28) → proxy over stdio: legacy results become valid 2026 results; a legacy upstream's ask is an input_required round, its call runs once", async () => {
  asked.length = 0;
  const transport = new StdioV2({ command: BUN, args: [MCPBIN, "proxy", "--servers", servers], stderr: "pipe" });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const seen = tap(transport as never);
  const client = v2Client();
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");

  // resultType, ttlMs and cacheScope on results of a 2025-11-25 upstream (the tap validates each against 2026-07-28).
  const readme = await client.readResource({ uri: "v1+docs://readme" });
  expect(readme.contents[0]).toMatchObject({
    uri: "v1+docs://readme",
    text: "# v1 readme",
    _meta: { "example.com/rev": 7 },
  });
  // A 2026 upstream's cache hints pass through; a legacy upstream's read gets ours (ttl 0, private).
  expect(await client.readResource({ uri: "v2+notes://today" })).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
  expect(readme).toMatchObject({ ttlMs: 0, cacheScope: "private" }); // resultType: the tap checks it (the SDK drops it)
  expect((await client.getPrompt({ name: "v1__greet", arguments: { who: "Bo" } })).messages[0]!.content).toEqual({
    type: "text",
    text: "Hello Bo",
  });
  expect((await client.listResourceTemplates()).resourceTemplates.length).toBe(2);

  // The legacy upstream's elicitation/create: our client gets input_required, answers, retries; the upstream call is the same one.
  expect(text(await client.callTool({ name: "ask_name", arguments: {} }))).toBe("hello Ada");
  expect(stderr.lines.filter((l) => l === "[v1] ask_name: started")).toHaveLength(1);
  // The 2026 upstream's own rounds (elicit, then sample), relayed round by round with its keys.
  expect(text(await client.callTool({ name: "confirm_delete", arguments: { path: "/tmp/z" } }))).toBe(
    "deleted /tmp/z; summary: one file removed; model: test-model",
  );
  expect((await client.readResource({ uri: "asks+vault://gold" })).contents[0]).toMatchObject({
    text: "the gold secret",
  });
  expect(asked.map((a) => a.message)).toEqual(["Your name?", "Delete /tmp/z?", "Reveal gold?"]);

  const calls = seen.filter((s) => s.method === "tools/call");
  expect(calls.every((s) => s.version === "2026-07-28")).toBe(true);
  expect(calls.length).toBe(5); // ask_name: input_required + complete; confirm_delete: 2 × input_required + complete
  expect(seen.filter((s) => s.method === "resources/read").length).toBe(4);
});

test("proxy --http, SDK v2 client at 2026-07-28: a prompt that asks, relayed across HTTP requests", async () => {
  asked.length = 0;
  const p = await HttpProcess.start([BUN, MCPBIN, "proxy", "--servers", servers]);
  closers.push(() => p.kill("SIGTERM"));
  const v = validatingFetch();
  const client = v2Client();
  await client.connect(new HttpV2(new URL(p.url), { fetch: v.fetch }));
  closers.push(() => client.close());
  expect((await client.getPrompt({ name: "briefing" })).messages[0]!.content).toEqual({
    type: "text",
    text: "Write a briefing for the board audience.",
  });
  expect(text(await client.callTool({ name: "ask_name", arguments: {} }))).toBe("hello Ada");
  expect(asked.map((a) => a.message)).toEqual(["Who is the audience?", "Your name?"]);
  expect(v.checked.responses).toBeGreaterThanOrEqual(4);
});

test("proxy --http, SDK v1 client in a legacy session: a subscription still held when the session ends is released upstream", async () => {
  const p = await HttpProcess.start([BUN, MCPBIN, "proxy", "--servers", servers]);
  closers.push(() => p.kill("SIGTERM"));
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const transport = new StreamableHTTPClientTransport(new URL(p.url));
  const client = new ClientV1({ name: "v1-http", version: "1.0.0" });
  await client.connect(transport);
  await client.subscribeResource({ uri: "v1+docs://readme" });
  await p.waitForStderr(/\[v1\] subscribed docs:\/\/readme/);
  await transport.terminateSession();
  await client.close();
  await p.waitForStderr(/\[v1\] unsubscribed docs:\/\/readme/);
});
