/** @module docs/asking.md: its server built once; the official SDK client answers its elicitation, sampling and roots requests. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
let c: Client;
let dir = "";
const asked: string[] = [];
let answer: "accept" | "decline" = "accept";
beforeAll(async () => {
  const built = await buildExample("asking", ["server.ts", "--outfile", "dist/asking"], "dist/asking");
  dir = built.dir;
  const t = new StdioClientTransport({ command: built.bin, args: [], stderr: "pipe", cwd: dir });
  tap(t as unknown as Transport);
  c = new Client(
    { name: "guide-reader", version: "1.0.0" },
    { capabilities: { elicitation: {}, sampling: {}, roots: {} } },
  );
  c.setRequestHandler(ElicitRequestSchema, (r) => {
    asked.push(`elicit: ${r.params.message}`);
    return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: "decline" };
  });
  c.setRequestHandler(CreateMessageRequestSchema, (r) => {
    asked.push(`sample: ${(r.params.messages[0]!.content as { text: string }).text}`);
    return { role: "assistant", model: "stub", content: { type: "text", text: "one file goes" } };
  });
  c.setRequestHandler(ListRootsRequestSchema, () => {
    asked.push("roots");
    return { roots: [{ uri: `file://${dir}`, name: "project" }] };
  });
  await c.connect(t);
});
afterAll(async () => {
  await c?.close();
  removeExamples();
});

test("remove asks, samples, lists the roots, then deletes the file", async () => {
  const path = "old.txt";
  writeFileSync(join(dir, path), "x");
  asked.length = 0;
  answer = "accept";
  const r = await c.callTool({ name: "remove", arguments: { path } });
  expect(r.content).toEqual([
    { type: "text", text: `deleted ${path}: {"type":"text","text":"one file goes"} (1 roots)` },
  ]);
  expect(asked).toEqual([`elicit: Delete ${path}?`, `sample: Summarise deleting ${path}`, "roots"]);
  expect(existsSync(join(dir, path))).toBe(false);
});

test("remove and apply touch only files under the working directory: an absolute path, a dot segment or a link out is refused", async () => {
  answer = "accept";
  const outside = join(dir, "..", `outside-${process.pid}.txt`);
  writeFileSync(outside, "keep");
  symlinkSync(outside, join(dir, "link-out"));
  try {
    for (const path of [outside, `../outside-${process.pid}.txt`, "link-out"]) {
      const removed = await c.callTool({ name: "remove", arguments: { path } });
      expect({ path, isError: removed.isError }).toEqual({ path, isError: true });
      const applied = await c.callTool({ name: "apply", arguments: { path } });
      expect({ path, isError: applied.isError }).toEqual({ path, isError: true });
    }
    expect(readFileSync(outside, "utf8")).toBe("keep");
  } finally {
    rmSync(outside, { force: true });
  }
});

test("a declined remove keeps the file", async () => {
  const path = "kept.txt";
  writeFileSync(join(dir, path), "x");
  answer = "decline";
  expect((await c.callTool({ name: "remove", arguments: { path } })).content).toEqual([{ type: "text", text: "kept" }]);
  expect(existsSync(join(dir, path))).toBe(true);
});

test("apply writes its plan once, after the ask", async () => {
  const path = "plan.txt";
  answer = "accept";
  asked.length = 0;
  expect((await c.callTool({ name: "apply", arguments: { path } })).content).toEqual([
    { type: "text", text: "applied" },
  ]);
  expect(asked).toEqual([`elicit: Apply writing ${`planned for ${path}\n`.length} bytes to ${path}?`]);
  expect(readFileSync(join(dir, path), "utf8")).toBe(`planned for ${path}\n`);
});
