/** @module docs/resources-prompts.md: its server built once and driven by the official SDK client (resources, templates, completion, prompts, subscriptions, logging). */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { tmpdir } from "node:os";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { buildExample, exampleFiles, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
let c: Client;
beforeAll(async () => {
  const { bin } = await buildExample("resources", ["server.ts", "--outfile", "dist/docs"], "dist/docs");
  // Run from another directory: the README was read into the executable at build time.
  const t = new StdioClientTransport({ command: bin, args: [], cwd: tmpdir(), stderr: "pipe" });
  tap(t as unknown as Transport);
  c = new Client({ name: "guide-reader", version: "1.0.0" });
  await c.connect(t);
});
afterAll(async () => {
  await c?.close();
  removeExamples();
});

test("the file resource is served as built, with its fields", async () => {
  const { resources } = await c.listResources();
  expect(resources).toContainEqual(
    expect.objectContaining({ uri: "docs://readme", name: "readme", title: "README", mimeType: "text/markdown" }),
  );
  expect(resources).toContainEqual(expect.objectContaining({ uri: "notes:///a.txt", name: "a.txt" }));
  const read = await c.readResource({ uri: "docs://readme" });
  expect(read.contents).toEqual([
    { uri: "docs://readme", mimeType: "text/markdown", text: exampleFiles("resources")["README.md"]! },
  ]);
});

test("the template: listed, read, completed; a path with .. is refused", async () => {
  expect((await c.listResourceTemplates()).resourceTemplates).toEqual([
    expect.objectContaining({ uriTemplate: "notes:///{+path}", name: "notes" }),
  ]);
  expect((await c.readResource({ uri: "notes:///b.txt" })).contents).toEqual([
    { uri: "notes:///b.txt", mimeType: "text/plain", text: "contents of b.txt" },
  ]);
  const done = await c.complete({
    ref: { type: "ref/resource", uri: "notes:///{+path}" },
    argument: { name: "path", value: "a" },
  });
  expect(done.completion.values).toEqual(["a.txt"]);
  await expect(c.readResource({ uri: "notes:///../etc/passwd" })).rejects.toThrow();
});

test("the prompt: its arguments are checked, its text is the message", async () => {
  const got = await c.getPrompt({ name: "review_code", arguments: { code: "let x = 1", language: "ts" } });
  expect(got.messages).toEqual([{ role: "user", content: { type: "text", text: "Review this ts code:\nlet x = 1" } }]);
  await expect(c.getPrompt({ name: "review_code", arguments: { language: "ts" } })).rejects.toThrow(/code/);
});

test("touch: a subscriber hears the update, and the log line arrives at the level asked for", async () => {
  const updated: string[] = [];
  const logged: unknown[] = [];
  c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(n.params));
  await c.subscribeResource({ uri: "notes:///a.txt" });
  await c.setLoggingLevel("info");
  expect((await c.callTool({ name: "touch", arguments: {} })).content).toEqual([{ type: "text", text: "ok" }]);
  await c.ping(); // notifications go out before the answer to the next request
  expect(updated).toEqual(["notes:///a.txt"]);
  expect(logged).toEqual([{ level: "info", data: { step: 1 }, logger: "worker" }]);
});
