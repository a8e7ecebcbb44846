// End to end: the compiled content fixture (resources, templates, prompts, completion, logging) driven by the official SDK v1 and v2 clients in both eras; every response validated against its version's schema.json.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { compileFixture, ROOT } from "../helpers/proc.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";

/** Waits for a promise, bounded: rejects naming what it waited for. */
function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

setDefaultTimeout(60_000);

let bin: string;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/content.ts", "content-fixture");
}, 120_000);
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
});

const GUIDE = readFileSync(resolve(ROOT, "test/fixtures/servers/content-files/guide.md"), "utf8");

/** What both clients and both eras must see. */
async function exercise(client: any) {
  const { resources } = await client.listResources();
  expect(resources.map((r: { uri: string }) => r.uri)).toEqual([
    "docs://readme",
    "docs://guide",
    "img://logo",
    "live://counter",
    "docs://broken",
    "notes:///a.txt",
    "notes:///b.txt",
  ]);
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
    "notes:///{+path}",
    "users://{id}/profile{?fields}",
  ]);
  expect((await client.readResource({ uri: "docs://readme" })).contents).toEqual([
    { uri: "docs://readme", mimeType: "text/markdown", text: "# Hello" },
  ]);
  expect((await client.readResource({ uri: "docs://guide" })).contents[0].text).toBe(GUIDE);
  expect((await client.readResource({ uri: "notes:///deep/x.txt" })).contents[0].text).toBe("contents of deep/x.txt");
  expect(JSON.parse((await client.readResource({ uri: "users://7/profile?fields=name" })).contents[0].text)).toEqual({
    id: "7",
    fields: "name",
  });
  await expect(client.readResource({ uri: "notes:///../secret.txt" })).rejects.toThrow(/\.\./);
  await expect(client.readResource({ uri: "docs://broken" })).rejects.toThrow(/the disk is on fire/);
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p: { name: string }) => p.name)).toEqual(["review_code", "mixed", "many", "failing"]);
  const got = await client.getPrompt({ name: "review_code", arguments: { code: "x = 1", language: "ts" } });
  expect(got.messages).toEqual([{ role: "user", content: { type: "text", text: "Review this ts code:\nx = 1" } }]);
  await expect(client.getPrompt({ name: "review_code", arguments: {} })).rejects.toThrow(/needs the argument "code"/);
  await expect(client.getPrompt({ name: "failing", arguments: {} })).rejects.toThrow(/prompt exploded/);
  const c1 = await client.complete({
    ref: { type: "ref/prompt", name: "review_code" },
    argument: { name: "language", value: "t" },
  });
  expect(c1.completion.values).toEqual(["ts", "typescript"]);
  const c2 = await client.complete({
    ref: { type: "ref/resource", uri: "notes:///{+path}" },
    argument: { name: "path", value: "c" },
  });
  expect(c2.completion.values).toEqual(["c/d.txt"]);
  const c3 = await client.complete({ ref: { type: "ref/prompt", name: "many" }, argument: { name: "n", value: "" } });
  expect(c3.completion).toEqual({ values: Array.from({ length: 100 }, (_, i) => `${i}`), total: 250, hasMore: true });
}

test("SDK v1 client (2025-11-25): list, read, templates, prompts, completion, subscribe and logging", async () => {
  const transport = new StdioV1({ command: bin, args: [], stderr: "pipe" });
  const client = new ClientV1({ name: "e2e-v1", version: "1.0.0" });
  const seen = tap(transport as unknown as Transport);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getServerCapabilities()).toEqual({
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: {},
    completions: {},
    logging: {},
  });
  await exercise(client);
  const updated = new Promise<unknown>((r) =>
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => r(n.params)),
  );
  await client.subscribeResource({ uri: "live://counter" });
  await client.callTool({ name: "touch", arguments: {} });
  expect(await withTimeout(updated, 10_000, "notifications/resources/updated")).toEqual({ uri: "live://counter" });
  expect(((await client.readResource({ uri: "live://counter" })).contents[0] as any).text).toBe("count 1");
  const logs: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  await client.callTool({ name: "chatty", arguments: {} });
  await client.setLoggingLevel("info");
  await client.callTool({ name: "chatty", arguments: {} });
  expect(logs).toEqual([
    { level: "info", logger: "worker", data: { step: 1 } },
    { level: "error", data: "something failed" },
  ]);
  expect(seen.every((s) => s.version === "2025-11-25")).toBe(true);
  expect(seen.some((s) => s.msg.error?.code === -32002)).toBe(false);
});

test("SDK v2 client, modern era (2026-07-28): the same, with cache hints, -32602 not found and subscriptions/listen", async () => {
  const transport = new StdioV2({ command: bin, args: [], stderr: "pipe" });
  const client = new ClientV2(
    { name: "e2e-v2", version: "2.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } as never } },
  );
  const seen = tap(transport as unknown as Transport);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getProtocolEra()).toBe("modern");
  await exercise(client);
  await expect(client.readResource({ uri: "nope://x" })).rejects.toThrow(/Resource not found/);
  const notFound = seen.find((s) => s.method === "resources/read" && s.msg.error?.data?.uri === "nope://x");
  expect(notFound?.msg.error.code).toBe(-32602);
  const lists = seen.filter((s) => s.method.endsWith("/list") && s.msg.result);
  expect(
    lists.every(
      (s) =>
        s.msg.result.resultType === "complete" &&
        Number.isInteger(s.msg.result.ttlMs) &&
        typeof s.msg.result.cacheScope === "string",
    ),
  ).toBe(true);
  const read = seen.find((s) => s.method === "resources/read" && s.msg.result)!;
  expect(read.msg.result.cacheScope).toBe("public"); // docs://readme says so
  const updated = new Promise<any>((r) =>
    client.setNotificationHandler("notifications/resources/updated", (n: any) => r(n.params)),
  );
  const sub = await client.listen({ resourceSubscriptions: ["live://counter", "nope://x"], promptsListChanged: true });
  await client.callTool({ name: "touch", arguments: {} });
  const params = await withTimeout(updated, 10_000, "notifications/resources/updated on the listen stream");
  expect(params.uri).toBe("live://counter");
  await sub.close();
  expect(seen.every((s) => s.version === "2026-07-28")).toBe(true);
});

test("SDK v2 client, legacy era: resources and prompts work there too", async () => {
  const transport = new StdioV2({ command: bin, args: [], stderr: "pipe" });
  const client = new ClientV2({ name: "e2e-v2", version: "2.0.0" });
  const seen = tap(transport as unknown as Transport);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getProtocolEra()).toBe("legacy");
  await exercise(client);
  await expect(client.readResource({ uri: "nope://x" })).rejects.toThrow();
  expect(seen.find((s) => s.method === "resources/read" && s.msg.error?.data?.uri === "nope://x")?.msg.error.code).toBe(
    -32002,
  );
});
