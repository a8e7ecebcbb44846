// connect() against a scripted server (a transport that answers as a test says): a -32022 answer naming 2026-07-28
// is sent once more (the probe and any later request), one naming only a legacy version leads to initialize, one
// naming none this client speaks fails without initialize; an accepted form elicitation is completed with the
// requested schema's defaults in both eras, and passed on as given with elicitationDefaults: false.
import { expect, test } from "bun:test";
import { connect } from "../../src/client/connect.ts";
import { withElicitationDefaults } from "../../src/client/elicit-defaults.ts";
import type { ClientTransport, TransportSink } from "../../src/client/transport.ts";
import type { ConnectOptions } from "../../src/client/connect.ts";

type Msg = { id?: string | number; method?: string; params?: any; result?: any; error?: any };
const MODERN = "2026-07-28";
const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const unsupported = (supported: string[]) => ({
  error: { code: -32022, message: "Unsupported protocol version", data: { supported, requested: MODERN } },
});
const DISCOVERED = {
  result: {
    resultType: "complete",
    supportedVersions: [MODERN],
    capabilities: { tools: {} },
    serverInfo: { name: "s", version: "1" },
  },
};
const INITIALIZED = {
  result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } },
};

/** A transport whose server is `answer`: what it returns for a message is sent back (a response to its id, or messages of its own). */
function scripted(
  answer: (m: Msg, sent: Msg[]) => Partial<Msg> | Msg[] | undefined,
): ClientTransport & { sent: Msg[] } {
  let sink: TransportSink | undefined;
  const sent: Msg[] = [];
  return {
    label: "scripted",
    sent,
    async start(s) {
      sink = s;
    },
    async send(line) {
      const m = JSON.parse(line) as Msg;
      sent.push(m);
      const r = answer(m, sent);
      if (r === undefined) return;
      const out = Array.isArray(r) ? r : [{ jsonrpc: "2.0", id: m.id, ...r }];
      queueMicrotask(() => out.forEach((o) => sink?.line(JSON.stringify(o))));
    },
    async close() {
      sink?.closed(undefined);
    },
  };
}

const open = (t: ClientTransport, o: ConnectOptions = {}) => connect(t, { startTimeoutMs: 2000, ...o });

test("a -32022 answer to the probe that names 2026-07-28 is sent once more, as a new request, and the client is modern", async () => {
  let refused = false;
  const t = scripted((m) => {
    if (m.method === "server/discover") return refused ? DISCOVERED : ((refused = true), unsupported([MODERN]));
    if (m.method === "tools/list") return { result: { tools: [] } };
  });
  const c = await open(t);
  expect(c.era).toBe("modern");
  const probes = t.sent.filter((m) => m.method === "server/discover");
  expect(probes.length).toBe(2);
  expect(probes[0]!.id).not.toBe(probes[1]!.id);
  expect(probes[1]!.params._meta[VERSION_KEY]).toBe(MODERN);
  expect(t.sent.some((m) => m.method === "initialize")).toBe(false);
  await c.close();
});

test("a later request answered -32022 naming 2026-07-28 is retried once; a second refusal is the caller's error", async () => {
  let lists = 0;
  const t = scripted((m) => {
    if (m.method === "server/discover") return DISCOVERED;
    if (m.method === "tools/list")
      return ++lists === 1
        ? unsupported([MODERN])
        : { result: { tools: [{ name: "a", inputSchema: { type: "object" } }] } };
    if (m.method === "prompts/list") return unsupported([MODERN]);
  });
  const c = await open(t);
  expect((await c.listTools()).map((x) => x.name)).toEqual(["a"]);
  const e = await c.listPrompts().catch((x) => x);
  expect(e.code).toBe("rpc");
  expect(e.rpc.code).toBe(-32022);
  expect(t.sent.filter((m) => m.method === "prompts/list").length).toBe(2);
  await c.close();
});

test("-32022 naming only a legacy version this client speaks leads to initialize; naming none it speaks fails without initialize", async () => {
  const legacy = scripted((m) => {
    if (m.method === "server/discover") return unsupported(["2025-11-25"]);
    if (m.method === "initialize") return INITIALIZED;
  });
  const c = await open(legacy);
  expect(c.era).toBe("legacy");
  expect(legacy.sent.filter((m) => m.method === "server/discover").length).toBe(1);
  await c.close();

  const alien = scripted((m) => (m.method === "server/discover" ? unsupported(["2099-01-01"]) : INITIALIZED));
  const e = await open(alien).catch((x) => x);
  expect(e.code).toBe("unavailable");
  expect(e.message).toContain("2099-01-01");
  expect(alien.sent.some((m) => m.method === "initialize")).toBe(false);
});

const FORM = {
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", default: "John Doe" },
      age: { type: "integer", default: 30 },
      tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a"] },
      note: { type: "string" },
    },
  },
};

test("withElicitationDefaults fills only the fields an accepted form answer leaves out", () => {
  expect(
    withElicitationDefaults("elicitation/create", FORM, { action: "accept", content: { name: "Ann", age: null } }),
  ).toEqual({
    action: "accept",
    content: { name: "Ann", age: null, tags: ["a"] },
  });
  expect(withElicitationDefaults("elicitation/create", FORM, { action: "accept" })).toEqual({
    action: "accept",
    content: { name: "John Doe", age: 30, tags: ["a"] },
  });
  for (const a of [{ action: "decline" }, { action: "cancel" }])
    expect(withElicitationDefaults("elicitation/create", FORM, a)).toBe(a);
  const url = { ...FORM, mode: "url", url: "https://example.com", elicitationId: "1" };
  expect(withElicitationDefaults("elicitation/create", url, { action: "accept" })).toEqual({ action: "accept" });
  expect(withElicitationDefaults("sampling/createMessage", FORM, { action: "accept" })).toEqual({ action: "accept" });
});

/** A legacy server whose tools/call elicits first: it answers the call with the elicitation's answer. */
function elicitingLegacy(): ClientTransport & { sent: Msg[] } {
  let call: Msg | undefined;
  return scripted((m) => {
    if (m.method === "server/discover") return { error: { code: -32601, message: "Method not found" } };
    if (m.method === "initialize") return INITIALIZED;
    if (m.method === "tools/call") {
      call = m;
      return [{ jsonrpc: "2.0", id: 77, method: "elicitation/create", params: FORM }];
    }
    if (m.id === 77) return [{ jsonrpc: "2.0", id: call!.id, result: { content: [], structuredContent: m.result } }];
  });
}

test("legacy: an accepted elicitation is completed with the schema's defaults; with elicitationDefaults: false it goes as given", async () => {
  const onRequest = async () => ({ action: "accept", content: { name: "Ann" } });
  const c = await open(elicitingLegacy(), { capabilities: { elicitation: {} }, onRequest });
  expect((await c.callTool("ask")).structuredContent).toEqual({
    action: "accept",
    content: { name: "Ann", age: 30, tags: ["a"] },
  });
  await c.close();
  const plain = await open(elicitingLegacy(), {
    capabilities: { elicitation: {} },
    onRequest,
    elicitationDefaults: false,
  });
  expect((await plain.callTool("ask")).structuredContent).toEqual({ action: "accept", content: { name: "Ann" } });
  await plain.close();
});

test("2026-07-28: an input_required round's accepted elicitation is completed with the schema's defaults", async () => {
  const t = scripted((m) => {
    if (m.method === "server/discover") return DISCOVERED;
    if (m.method === "tools/call" && !m.params.inputResponses)
      return {
        result: {
          resultType: "input_required",
          inputRequests: { who: { method: "elicitation/create", params: FORM } },
          requestState: "s1",
        },
      };
    if (m.method === "tools/call")
      return { result: { resultType: "complete", content: [], structuredContent: m.params.inputResponses.who } };
  });
  const c = await open(t, { capabilities: { elicitation: {} }, onRequest: async () => ({ action: "accept" }) });
  expect((await c.callTool("ask")).structuredContent).toEqual({
    action: "accept",
    content: { name: "John Doe", age: 30, tags: ["a"] },
  });
  expect(t.sent.filter((m) => m.method === "tools/call").at(-1)!.params.requestState).toBe("s1");
  await c.close();
});
