// Tools that ask, legacy eras (issue 16): the compiled ask fixture driven by the official SDK v1 client
// with elicitation, sampling and roots handlers over stdio and over Streamable HTTP (raw lines at 2025-03-26 and
// 2025-06-18: legacy-raw.test.ts). Every message the client receives is validated against its version's schema.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { compileFixture } from "../helpers/proc.ts";
import { assertValidNotification, assertValidRequest, assertValidResponse } from "../helpers/schema.ts";
import { intercept } from "../helpers/sdk-tap.ts";
import { HttpProcess, validatingFetch } from "../http/helpers.ts";

/** Resolves with `p`, or fails naming what did not happen within `ms`. */
function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => (t = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))),
  ]).finally(() => clearTimeout(t));
}

type Msg = Record<string, any>;
type Transport = { send(m: Msg, o?: unknown): Promise<void>; onmessage?: (m: Msg, extra?: unknown) => void };

let bin: string;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/ask.ts", "ask-fixture");
}, 60_000);
afterAll(async () => {
  for (const c of closers) await Promise.resolve(c()).catch(() => {});
});

const REQUEST_DEFS: Record<string, string> = {
  "elicitation/create": "ElicitRequest",
  "sampling/createMessage": "CreateMessageRequest",
  "roots/list": "ListRootsRequest",
};

/** Validates every message the client receives (responses, the server's requests, notifications) against the negotiated version. */
function tap(t: Transport) {
  let version = "2025-11-25";
  const received: Msg[] = [];
  intercept(t, (m, req) => {
    received.push(m);
    if (req && ("result" in m || "error" in m)) {
      if (req.method === "initialize") version = m.result?.protocolVersion;
      assertValidResponse(version, req.method, m);
    } else if (m.method && m.id !== undefined)
      assertValidRequest(version, REQUEST_DEFS[m.method] ?? "JSONRPCRequest", m);
    else if (m.method === "notifications/cancelled") assertValidNotification(version, "CancelledNotification", m);
  });
  return received;
}

interface Handlers {
  elicit?: (params: Msg, extra: { signal: AbortSignal }) => Promise<Msg>;
  sample?: (params: Msg) => Promise<Msg>;
  roots?: Msg[];
}

function client(h: Handlers) {
  const capabilities: Msg = {};
  if (h.elicit) capabilities.elicitation = { form: {}, url: {} };
  if (h.sample) capabilities.sampling = {};
  if (h.roots) capabilities.roots = {};
  const c = new Client({ name: "ask-v1", version: "1.0.0" }, { capabilities });
  if (h.elicit) c.setRequestHandler(ElicitRequestSchema, (r, extra) => h.elicit!(r.params, extra) as never);
  if (h.sample) c.setRequestHandler(CreateMessageRequestSchema, (r) => h.sample!(r.params) as never);
  if (h.roots) c.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: h.roots! }));
  return c;
}

async function stdio(h: Handlers) {
  const transport = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => void (stderr += d.toString()));
  const received = tap(transport as unknown as Transport);
  const c = client(h);
  await c.connect(transport);
  closers.push(() => c.close());
  return { c, received, stderr: () => stderr };
}

const asked: Msg[] = [];
const yes: Handlers = {
  elicit: async (p) => (asked.push(p), { action: "accept", content: { confirm: true } }),
  sample: async (p) => (
    asked.push(p),
    {
      role: "assistant",
      content: { type: "text", text: "one file removed" },
      model: "test-model",
      stopReason: "endTurn",
    }
  ),
  roots: [{ uri: "file:///work", name: "work" }],
};

test("stdio: a tool that asks twice (elicit, then sample) gets both answers; the requests are the spec's", async () => {
  asked.length = 0;
  const { c, received } = await stdio(yes);
  const r = await c.callTool({ name: "confirm_delete", arguments: { path: "/tmp/x" } });
  expect(r.content).toEqual([{ type: "text", text: "deleted /tmp/x; summary: one file removed; model: test-model" }]);
  expect(asked[0]).toEqual({
    message: "Delete /tmp/x?",
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: "Delete?" } },
      required: ["confirm"],
    },
  });
  expect(asked[1]).toMatchObject({
    messages: [{ role: "user", content: { type: "text", text: "Summarise the deletion of /tmp/x" } }],
    maxTokens: 50,
  });
  const requests = received.filter((m) => m.method && m.id !== undefined);
  expect(requests.map((m) => m.method)).toEqual(["elicitation/create", "sampling/createMessage"]);
  expect(requests.every((m) => typeof m.id === "string" && m.id.startsWith("mcpbin-"))).toBe(true);

  const roots = await c.callTool({ name: "list_roots", arguments: {} });
  expect(roots.content).toEqual([{ type: "text", text: '[{"uri":"file:///work","name":"work"}]' }]);
  const login = await c.callTool({ name: "login", arguments: {} });
  expect(login.content).toEqual([{ type: "text", text: "login: accept" }]);
  const url = asked.find((p) => p.mode === "url")!;
  expect(url).toMatchObject({ mode: "url", message: "Sign in to Example", url: "https://example.com/connect?x=1" });
  expect(url.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
});

test("stdio: decline ends the tool early; a form answer is parsed (defaults applied) and a mismatch is an isError", async () => {
  let answer: Msg = { action: "decline" };
  const { c } = await stdio({ elicit: async () => answer });
  const kept = await c.callTool({ name: "confirm_delete", arguments: { path: "/a" } });
  expect(kept.content).toEqual([{ type: "text", text: "kept /a (decline)" }]);
  answer = { action: "accept", content: { name: "Ann" } };
  const p = await c.callTool({ name: "profile", arguments: {} });
  expect(p.structuredContent).toEqual({
    action: "accept",
    content: { name: "Ann", age: 30, color: "r", newsletter: false },
  });
  answer = { action: "accept", content: { name: "Ann", age: -1 } };
  const bad = await c.callTool({ name: "profile", arguments: {} });
  expect(bad.isError).toBe(true);
  expect((bad.content as Msg[])[0]!.text).toStartWith(
    'the client\'s answer to "Your profile" does not match the form: age:',
  );
});

test("stdio: without the capability the ask is a typed error: caught → fallback, uncaught → a clear isError; roots → []", async () => {
  const { c, received } = await stdio({});
  const polite = await c.callTool({ name: "polite_sample", arguments: {} });
  expect(polite.content).toEqual([{ type: "text", text: "no sampling: the client does not support sampling" }]);
  const rude = await c.callTool({ name: "rude_sample", arguments: {} });
  expect(rude).toMatchObject({
    isError: true,
    content: [{ type: "text", text: "the client does not support sampling" }],
  });
  const el = await c.callTool({ name: "confirm_delete", arguments: { path: "/a" } });
  expect((el.content as Msg[])[0]!.text).toBe("the client does not support elicitation");
  const roots = await c.callTool({ name: "list_roots", arguments: {} });
  expect(roots.content).toEqual([{ type: "text", text: "[]" }]);
  expect(received.some((m) => m.method && m.id !== undefined)).toBe(false);
});

test("stdio: a call cancelled while its tool waits for an answer cancels the elicitation too", async () => {
  let cancelledAsk!: () => void;
  const askCancelled = new Promise<void>((r) => (cancelledAsk = r));
  let asking!: () => void;
  const askArrived = new Promise<void>((r) => (asking = r));
  const { c, received, stderr } = await stdio({
    elicit: (_p, extra) =>
      new Promise((_, reject) => {
        asking();
        extra.signal.addEventListener("abort", () => (cancelledAsk(), reject(new Error("cancelled"))));
      }),
  });
  const controller = new AbortController();
  const call = c.callTool({ name: "wait_for_answer", arguments: {} }, undefined, { signal: controller.signal });
  await withTimeout(askArrived, 10_000, "the elicitation request");
  controller.abort("the user gave up");
  await expect(call).rejects.toThrow();
  await withTimeout(askCancelled, 10_000, "notifications/cancelled for the elicitation");
  const note = received.find((m) => m.method === "notifications/cancelled")!;
  const ask = received.find((m) => m.method === "elicitation/create")!;
  expect(note.params.requestId).toBe(ask.id);
  await withTimeout(
    (async () => {
      while (!stderr().includes("wait_for_answer: ended")) await Bun.sleep(20);
    })(),
    10_000,
    "the tool's stderr line",
  );
  expect(stderr()).toContain("wait_for_answer: ended: cancelled; signal aborted: true");
  // The session goes on.
  const r = await c.callTool({ name: "list_roots", arguments: {} });
  expect(r.content).toEqual([{ type: "text", text: "[]" }]);
});

test("stdio: an ask the client never answers times out as an isError (and the client is told)", async () => {
  let cancelled!: () => void;
  const told = new Promise<void>((r) => (cancelled = r));
  const { c } = await stdio({
    elicit: (_p, extra) =>
      new Promise((_, reject) => extra.signal.addEventListener("abort", () => (cancelled(), reject(new Error("x"))))),
  });
  const r = await c.callTool({ name: "wait_for_answer", arguments: { timeoutMs: 300 } });
  expect(r.isError).toBe(true);
  expect((r.content as Msg[])[0]!.text).toBe("elicitation/create: no answer from the client within 300 ms");
  await withTimeout(told, 10_000, "notifications/cancelled after the timeout");
});

test("Streamable HTTP (legacy session): the asks travel on the call's SSE stream and the answers come back by POST", async () => {
  const server = await HttpProcess.start([bin]);
  closers.push(() => server.kill());
  asked.length = 0;
  const v = validatingFetch();
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { fetch: v.fetch });
  const c = client(yes);
  await c.connect(transport);
  closers.push(() => c.close());
  const r = await c.callTool({ name: "confirm_delete", arguments: { path: "/srv/y" } });
  expect(r.content).toEqual([{ type: "text", text: "deleted /srv/y; summary: one file removed; model: test-model" }]);
  expect(asked.map((p) => ("requestedSchema" in p ? "elicit" : "sample"))).toEqual(["elicit", "sample"]);
  expect(v.checked.requests).toBeGreaterThanOrEqual(2);
  const roots = await c.callTool({ name: "list_roots", arguments: {} });
  expect(roots.content).toEqual([{ type: "text", text: '[{"uri":"file:///work","name":"work"}]' }]);

  // Cancelled while waiting, over HTTP.
  let cancelledAsk!: () => void;
  const askCancelled = new Promise<void>((res) => (cancelledAsk = res));
  let asking!: () => void;
  const askArrived = new Promise<void>((res) => (asking = res));
  const waiting = client({
    elicit: (_p, extra) =>
      new Promise(
        (_, reject) => (
          asking(),
          extra.signal.addEventListener("abort", () => (cancelledAsk(), reject(new Error("x"))))
        ),
      ),
  });
  await waiting.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  closers.push(() => waiting.close());
  const controller = new AbortController();
  const call = waiting.callTool({ name: "wait_for_answer", arguments: {} }, undefined, { signal: controller.signal });
  await withTimeout(askArrived, 10_000, "the elicitation over SSE");
  controller.abort("gave up");
  await expect(call).rejects.toThrow();
  await withTimeout(askCancelled, 10_000, "notifications/cancelled for the elicitation over SSE");
  await server.waitForStderr("wait_for_answer: ended");
  expect(server.stderr).toContain("wait_for_answer: ended: cancelled; signal aborted: true");
});

test("stdio: prompts/get and resources/read ask through the same ctx API", async () => {
  let answer: Msg = { action: "accept", content: { audience: "board" } };
  const { c, received } = await stdio({ elicit: async () => answer });
  const p = await c.getPrompt({ name: "briefing" });
  expect(p.messages).toEqual([
    { role: "user", content: { type: "text", text: "Write a briefing for the board audience." } },
  ]);
  answer = { action: "accept", content: { confirm: true } };
  const r = await c.readResource({ uri: "vault://alpha" });
  expect(r.contents).toEqual([{ uri: "vault://alpha", mimeType: "text/plain", text: "the alpha secret" }]);
  expect(received.filter((m) => m.method === "elicitation/create").map((m) => m.params.message)).toEqual([
    "Who is the audience?",
    "Reveal alpha?",
  ]);
});
