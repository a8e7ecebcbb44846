// Tools that ask, 2026-07-28 (issue 16): the compiled ask fixture answers with input_required rounds;
// the official SDK v2 client fulfils them through its elicitation/sampling/roots handlers and retries,
// over stdio and over HTTP, including round-robin across processes that share MCPBIN_STATE_KEY (retries refused
// over raw HTTP: modern-state.test.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { compileFixture } from "../helpers/proc.ts";
import { assertValid, assertValidResponse } from "../helpers/schema.ts";
import { intercept } from "../helpers/sdk-tap.ts";
import { HttpProcess, META, modernHeaders, post, validatingFetch } from "../http/helpers.ts";

type Msg = Record<string, any>;
type Transport = { send(m: Msg, o?: unknown): Promise<void>; onmessage?: (m: Msg, extra?: unknown) => void };
const V = "2026-07-28";
const KEY = "k".repeat(16) + "shared-state-key-for-tests";
const ALL_CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

let bin: string;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/ask.ts", "ask-fixture-modern");
}, 60_000);
afterAll(async () => {
  for (const c of closers) await Promise.resolve(c()).catch(() => {});
});

const asked: Msg[] = [];
function client(capabilities: Msg = ALL_CAPS) {
  const c = new Client(
    { name: "ask-v2", version: "2.0.0" },
    { capabilities, versionNegotiation: { mode: { pin: V } as never } },
  );
  if (capabilities.elicitation) {
    c.setRequestHandler("elicitation/create", async (r: Msg) => {
      asked.push(r.params);
      return r.params.mode === "url" ? { action: "accept" } : { action: "accept", content: { confirm: true } };
    });
  }
  if (capabilities.sampling) {
    c.setRequestHandler("sampling/createMessage", async (r: Msg) => {
      asked.push(r.params);
      return {
        role: "assistant",
        content: { type: "text", text: "one file removed" },
        model: "test-model",
        stopReason: "endTurn",
      };
    });
  }
  if (capabilities.roots)
    c.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  return c;
}

/** Records every response the client receives, validated against 2026-07-28 (input_required included). */
function tap(t: Transport) {
  const seen: { req: Msg; res: Msg }[] = [];
  intercept(t, (m, req) => {
    if (req && ("result" in m || "error" in m)) {
      assertValidResponse(V, req.method, m);
      seen.push({ req, res: m });
    }
    expect(m.method === undefined || m.id === undefined).toBe(true); // no server → client request in this era
  });
  return seen;
}

test("stdio, SDK v2 (2026-07-28): elicit then sample in three rounds, each input_required valid, then the result", async () => {
  asked.length = 0;
  const transport = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => void (stderr += d.toString()));
  const seen = tap(transport as unknown as Transport);
  const c = client();
  await c.connect(transport);
  closers.push(() => c.close());
  expect(c.getNegotiatedProtocolVersion()).toBe(V);
  const r = await c.callTool({ name: "confirm_delete", arguments: { path: "/tmp/x" } });
  expect(r.content).toEqual([{ type: "text", text: "deleted /tmp/x; summary: one file removed; model: test-model" }]);
  const calls = seen.filter((s) => s.req.method === "tools/call");
  expect(calls.map((s) => s.res.result.resultType)).toEqual(["input_required", "input_required", "complete"]);
  const [r1, r2, r3] = calls;
  expect(Object.keys(r1!.res.result.inputRequests)).toEqual(["elicit_1"]);
  expect(Object.keys(r2!.res.result.inputRequests)).toEqual(["sample_2"]);
  for (const s of [r1!, r2!]) {
    expect(s.res.result).not.toHaveProperty("ttlMs");
    expect(s.res.result).not.toHaveProperty("cacheScope");
    for (const req of Object.values(s.res.result.inputRequests)) assertValid(V, "InputRequest", req);
  }
  // Each retry echoes the state and carries this round's answers only; ids differ.
  expect(r2!.req.params.requestState).toBe(r1!.res.result.requestState);
  expect(Object.keys(r2!.req.params.inputResponses)).toEqual(["elicit_1"]);
  expect(Object.keys(r3!.req.params.inputResponses)).toEqual(["sample_2"]);
  expect(new Set(calls.map((s) => s.req.id)).size).toBe(3);
  expect(asked[0]).toEqual({
    message: "Delete /tmp/x?",
    requestedSchema: {
      type: "object",
      properties: { confirm: { type: "boolean", title: "Delete?" } },
      required: ["confirm"],
    },
  });
  // The side effect after the last ask ran once; the code before it ran in every round.
  for (let i = 0; i < 500 && !stderr.includes("confirm_delete: deleting"); i++) await Bun.sleep(20);
  expect(stderr.match(/confirm_delete: deleting/g)?.length).toBe(1);

  const roots = await c.callTool({ name: "list_roots", arguments: {} });
  expect(roots.content).toEqual([{ type: "text", text: '[{"uri":"file:///work","name":"work"}]' }]);
  const login = await c.callTool({ name: "login", arguments: {} });
  expect(login.content).toEqual([{ type: "text", text: "login: accept" }]);
  expect(asked.find((p) => p.mode === "url")).toEqual({
    mode: "url",
    message: "Sign in to Example",
    url: "https://example.com/connect?x=1",
  });
});

test("stdio, SDK v2: capabilities are per request — caught → fallback; uncaught → -32021 with requiredCapabilities", async () => {
  const transport = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  const seen = tap(transport as unknown as Transport);
  const c = client({});
  await c.connect(transport);
  closers.push(() => c.close());
  const polite = await c.callTool({ name: "polite_sample", arguments: {} });
  expect(polite.content).toEqual([{ type: "text", text: "no sampling: the client does not support sampling" }]);
  await expect(c.callTool({ name: "rude_sample", arguments: {} })).rejects.toThrow(/does not support sampling/);
  const err = seen.find((s) => s.req.params?.name === "rude_sample")!.res.error;
  expect(err).toEqual({
    code: -32021,
    message: "Missing required client capability: the client does not support sampling",
    data: { requiredCapabilities: { sampling: {} } },
  });
  const roots = await c.callTool({ name: "list_roots", arguments: {} });
  expect(roots.content).toEqual([{ type: "text", text: "[]" }]);
});

async function pair(keys: [string | undefined, string | undefined]) {
  const env = (k: string | undefined): Record<string, string> => (k === undefined ? {} : { MCPBIN_STATE_KEY: k });
  const ps = await Promise.all(keys.map((k) => HttpProcess.start([bin], { env: env(k) })));
  for (const p of ps) closers.push(() => p.kill());
  return ps;
}

function roundRobin(urls: string[], v: ReturnType<typeof validatingFetch>) {
  let turn = 0;
  const served = urls.map(() => 0);
  const f = ((input: any, init?: any) => {
    const i = turn++ % urls.length;
    served[i]!++;
    return v.fetch(urls[i]!, init);
  }) as typeof fetch;
  return { fetch: f, served };
}

test("scale-out over HTTP: rounds alternate between two processes with the same MCPBIN_STATE_KEY and the call completes", async () => {
  const [a, b] = await pair([KEY, KEY]);
  const v = validatingFetch();
  const rr = roundRobin([a!.url, b!.url], v);
  const c = client();
  await c.connect(new StreamableHTTPClientTransport(new URL(a!.url), { fetch: rr.fetch }));
  closers.push(() => c.close());
  const r = await c.callTool({ name: "confirm_delete", arguments: { path: "/lb" } });
  expect(r.content).toEqual([{ type: "text", text: "deleted /lb; summary: one file removed; model: test-model" }]);
  expect(rr.served[0]).toBeGreaterThan(0);
  expect(rr.served[1]).toBeGreaterThan(0);
  expect(v.checked.responses).toBeGreaterThanOrEqual(3);
  // The side effect after the last ask ran once, in one of the two processes (its stderr line arrives on its own pipe: wait for it).
  const has = (p: HttpProcess) => p.stderr.includes("confirm_delete: deleting");
  await Promise.any([a!.waitForStderr("confirm_delete: deleting"), b!.waitForStderr("confirm_delete: deleting")]);
  expect([has(a!), has(b!)].filter(Boolean).length).toBe(1);
});

test("scale-out with different keys (or none): the retry on the other process is refused with -32602", async () => {
  for (const keys of [
    [KEY, KEY.replace("k", "j")],
    [undefined, undefined],
  ] as [string | undefined, string | undefined][]) {
    const [a, b] = await pair(keys);
    const body = (extra: Msg, id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "confirm_delete",
        arguments: { path: "/p" },
        _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": ALL_CAPS },
        ...extra,
      },
    });
    const first = await post(a!.url, body({}, 1), modernHeaders("tools/call", "confirm_delete"));
    assertValidResponse(V, "tools/call", first.json);
    expect(first.json.result.resultType).toBe("input_required");
    const retry = {
      requestState: first.json.result.requestState,
      inputResponses: { elicit_1: { action: "accept", content: { confirm: true } } },
    };
    const other = await post(b!.url, body(retry, 2), modernHeaders("tools/call", "confirm_delete"));
    assertValidResponse(V, "tools/call", other.json);
    expect(other.json.error.code).toBe(-32602);
    expect(other.json.error.message).toContain("integrity check");
    // The process that issued it accepts it.
    const same = await post(a!.url, body(retry, 3), modernHeaders("tools/call", "confirm_delete"));
    expect(same.json.result.resultType).toBe("input_required");
    expect(Object.keys(same.json.result.inputRequests)).toEqual(["sample_2"]);
  }
});

test("stdio, SDK v2: prompts/get and resources/read answer input_required too, and complete on the retry", async () => {
  const transport = new StdioClientTransport({ command: bin, args: [], stderr: "pipe" });
  const seen = tap(transport as unknown as Transport);
  const c = new Client(
    { name: "ask-v2", version: "2.0.0" },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: V } as never } },
  );
  c.setRequestHandler(
    "elicitation/create",
    async (r: Msg) =>
      ({
        action: "accept",
        content: (r.params.message.startsWith("Who") ? { audience: "team" } : { confirm: false }) as Msg,
      }) as never,
  );
  await c.connect(transport);
  closers.push(() => c.close());
  const p = await c.getPrompt({ name: "briefing" });
  expect(p.messages).toEqual([
    { role: "user", content: { type: "text", text: "Write a briefing for the team audience." } },
  ]);
  const r = await c.readResource({ uri: "vault://beta" });
  expect(r.contents).toEqual([{ uri: "vault://beta", mimeType: "text/plain", text: "(not revealed)" }]);
  const kinds = seen
    .filter((s) => s.req.method !== "server/discover")
    .map((s) => `${s.req.method} ${s.res.result?.resultType}`);
  expect(kinds).toEqual([
    "prompts/get input_required",
    "prompts/get complete",
    "resources/read input_required",
    "resources/read complete",
  ]);
  // No cache hints on input_required; the complete read has them.
  const reads = seen.filter((s) => s.req.method === "resources/read");
  expect(reads[0]!.res.result).not.toHaveProperty("ttlMs");
  expect(reads[1]!.res.result).toHaveProperty("ttlMs");
});
