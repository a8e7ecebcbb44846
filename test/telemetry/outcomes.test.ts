// How the server ended a call, on its SERVER span (OpenTelemetry MCP conventions): error.type `result_too_large`,
// `timeout`, `aborted` (status ERROR) and `cancelled` (status UNSET, the client's choice); and mcp.session.id on
// legacy HTTP sessions only, never on 2026-07-28 requests. In-memory exporter; HTTP through mcpHandler() in a real
// Bun.serve driven by fetch.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { SpanStatusCode, type Context } from "@opentelemetry/api";
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace";
import type { Server } from "bun";
import * as v from "valibot";
import { mcpHandler, tool } from "../../src/index.ts";
import { Registry } from "../../src/server/registry.ts";
import { Session } from "../../src/server/dispatcher.ts";
import { ensureContextManager } from "../../src/telemetry/context.ts";
import { enableTracing } from "../../src/telemetry/spans.ts";
import { resetTracing } from "../../src/telemetry/state.ts";
import { initLine } from "../helpers/proc.ts";
import { META, modernHeaders, post } from "../http/helpers.ts";

const exporter = new InMemorySpanExporter();
/** Resolves waiters when a span matching their test ends (tests wait for the span, never sleep). */
const waiters: { match: (s: ReadableSpan) => boolean; resolve: (s: ReadableSpan) => void }[] = [];
const notify: SpanProcessor = {
  onStart: (_s, _c: Context) => {},
  onEnd: (s) => {
    for (const w of [...waiters]) if (w.match(s)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(s));
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter }), notify] });
const spans = () => exporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === "mcpbin");
function spanOf(id: string, ms = 10_000): Promise<ReadableSpan> {
  const done = spans().find((s) => s.attributes["jsonrpc.request.id"] === id);
  if (done) return Promise.resolve(done);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no span for request ${id} within ${ms} ms`)), ms);
    waiters.push({
      match: (s) => s.instrumentationScope.name === "mcpbin" && s.attributes["jsonrpc.request.id"] === id,
      resolve: (s) => (clearTimeout(timer), resolve(s)),
    });
  });
}

let started: () => void = () => {};
const tools = [
  tool({ name: "big", description: "a result over the limit", input: v.object({}), run: () => "x".repeat(4096) }),
  tool({
    name: "big_later",
    description: "a result over the limit, after an await",
    input: v.object({}),
    run: async () => {
      await new Promise((r) => setImmediate(r)); // across a turn of the event loop
      return "y".repeat(4096);
    },
  }),
  tool({
    name: "hangs",
    description: "runs until its signal aborts",
    input: v.object({}),
    run: (_a, ctx) =>
      new Promise<string>((resolve) => {
        started();
        ctx.signal.addEventListener("abort", () => resolve("late"));
      }),
  }),
  tool({
    name: "hangs_50",
    description: "runs until its own 50 ms limit",
    input: v.object({}),
    timeoutMs: 50,
    run: (_a, ctx) => new Promise<string>((r) => ctx.signal.addEventListener("abort", () => r("late"))),
  }),
  tool({ name: "echo", description: "echo", input: v.object({ text: v.string() }), run: ({ text }) => text }),
];
const call = (id: number | string, name: string, meta?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: name === "echo" ? { text: "hi" } : {}, ...(meta ? { _meta: meta } : {}) },
});

beforeAll(() => {
  expect(ensureContextManager()).toBe(true);
  enableTracing(provider.getTracer("mcpbin"), "tcp");
});
afterAll(() => resetTracing());
beforeEach(() => exporter.reset());

describe("stdio pipeline: how the server ended a call", () => {
  let session: Session;
  beforeEach(async () => {
    session = new Session(new Registry({ name: "outcomes", version: "1.0.0", tools, maxResultBytes: 2048 }), () => {});
    await session.handleLine(initLine("2025-06-18"));
    exporter.reset();
  });
  const send = async (msg: unknown) => {
    const line = await session.handleLine(JSON.stringify(msg));
    return line === undefined ? undefined : JSON.parse(line);
  };

  test("a result over maxResultBytes: error.type result_too_large, status ERROR (sync and async tools)", async () => {
    const a = await send(call(1, "big"));
    const b = await send(call(2, "big_later"));
    expect([a.result.isError, b.result.isError]).toEqual([true, true]);
    for (const id of ["1", "2"]) {
      const s = await spanOf(id);
      expect(s.attributes["error.type"]).toBe("result_too_large");
      expect(s.status.code).toBe(SpanStatusCode.ERROR);
    }
  });

  test("a tool's time limit: error.type timeout, status ERROR", async () => {
    const r = await send(call(3, "hangs_50"));
    expect(r.result.isError).toBe(true);
    const s = await spanOf("3");
    expect(s.attributes["error.type"]).toBe("timeout");
    expect(s.status.code).toBe(SpanStatusCode.ERROR);
  });

  test("a call the client cancels: error.type cancelled, status UNSET; one aborted by the shutdown: aborted, ERROR", async () => {
    const running = new Promise<void>((r) => (started = r));
    const cancelled = session.handleLine(JSON.stringify(call(4, "hangs")));
    await running;
    await session.handleLine(
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4, reason: "user" } }),
    );
    expect(await cancelled).toBeUndefined();
    const c = await spanOf("4");
    expect(c.attributes["error.type"]).toBe("cancelled");
    expect(c.status.code).toBe(SpanStatusCode.UNSET);

    const again = new Promise<void>((r) => (started = r));
    const aborted = session.handleLine(JSON.stringify(call(5, "hangs")));
    await again;
    session.abortAll("The server is shutting down");
    expect(JSON.parse((await aborted)!).result.isError).toBe(true);
    const a = await spanOf("5");
    expect(a.attributes["error.type"]).toBe("aborted");
    expect(a.status.code).toBe(SpanStatusCode.ERROR);
  });

  test("a call that ends normally keeps no error.type", async () => {
    await send(call(6, "echo"));
    const s = await spanOf("6");
    expect(s.attributes["error.type"]).toBeUndefined();
    expect(s.attributes["mcp.session.id"]).toBeUndefined(); // stdio has no session id
  });
});

describe("HTTP (mcpHandler in Bun.serve)", () => {
  let server: Server<undefined>;
  const mcp = mcpHandler({ name: "outcomes-http", version: "1.0.0", tools, http: { requestTimeoutMs: 300 } });
  let url = "";
  beforeAll(() => {
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req, srv) => mcp(req, srv) });
    url = `http://127.0.0.1:${server.port}/mcp`;
  });
  afterAll(() => {
    mcp.close();
    void server?.stop(true);
  });
  const LEGACY = { "content-type": "application/json", accept: "application/json, text/event-stream" };

  test("legacy session spans carry mcp.session.id (batches too); 2026-07-28 spans never do", async () => {
    const i = await post(url, JSON.parse(initLine("2025-03-26", "init-1")), LEGACY);
    const sid = i.headers.get("mcp-session-id")!;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    const h = { ...LEGACY, "mcp-session-id": sid };
    expect((await post(url, call("l1", "echo"), h)).status).toBe(200);
    expect((await post(url, [call("b1", "echo")], h)).status).toBe(200);
    expect((await post(url, call("m1", "echo", META), modernHeaders("tools/call", "echo"))).status).toBe(200);
    expect((await spanOf("l1")).attributes["mcp.session.id"]).toBe(sid);
    expect((await spanOf("b1")).attributes["mcp.session.id"]).toBe(sid);
    const modern = await spanOf("m1");
    expect(modern.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(modern.attributes["mcp.session.id"]).toBeUndefined();
  });

  test("http.requestTimeoutMs ends a call: error.type timeout; a closed connection: cancelled", async () => {
    const t = await post(url, call("t1", "hangs", META), modernHeaders("tools/call", "hangs"));
    expect(t.json.error.message).toContain("timed out");
    const ts = await spanOf("t1");
    expect(ts.attributes["error.type"]).toBe("timeout");
    expect(ts.status.code).toBe(SpanStatusCode.ERROR);

    const running = new Promise<void>((r) => (started = r));
    const ac = new AbortController();
    const gone = fetch(url, {
      method: "POST",
      headers: modernHeaders("tools/call", "hangs"),
      body: JSON.stringify(call("c1", "hangs", META)),
      signal: ac.signal,
    }).catch((e) => e);
    await running;
    ac.abort();
    await gone;
    const cs = await spanOf("c1");
    expect(cs.attributes["error.type"]).toBe("cancelled");
    expect(cs.status.code).toBe(SpanStatusCode.UNSET);
    // The transport cancels through the pipeline directly: no span for a notifications/cancelled it never received.
    expect(spans().filter((s) => s.name === "notifications/cancelled")).toEqual([]);
  });
});
