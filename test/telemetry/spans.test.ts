// One SERVER span per valid MCP message (OpenTelemetry MCP semantic conventions), checked with an in-memory exporter.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import { tool, toolResult, textContent } from "../../src/index.ts";
import { Registry } from "../../src/server/registry.ts";
import { Session } from "../../src/server/dispatcher.ts";
import { ensureContextManager } from "../../src/telemetry/context.ts";
import { enableTracing } from "../../src/telemetry/spans.ts";
import { resetTracing, tracing } from "../../src/telemetry/state.ts";
import { initLine, META } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const authorTracer = provider.getTracer("author");
let seenArgs: unknown;

const tools = [
  tool({ name: "echo", description: "echo", input: v.object({ text: v.string() }), run: ({ text }) => text }),
  tool({
    name: "slow",
    description: "awaits, then starts its own span",
    input: v.object({}),
    run: async () => {
      await new Promise((r) => setImmediate(r)); // across a turn of the event loop
      const child = authorTracer.startSpan("author-work");
      await new Promise((r) => setImmediate(r)); // across a turn of the event loop
      child.end();
      return "ok";
    },
  }),
  tool({
    name: "fails",
    description: "isError",
    input: v.object({}),
    run: () => toolResult({ content: [textContent("secret failure text")], isError: true }),
  }),
  tool({
    name: "fails_later",
    description: "isError after an await",
    input: v.object({}),
    run: async () => {
      await new Promise((r) => setImmediate(r)); // across a turn of the event loop
      return toolResult({ content: [textContent("x")], isError: true });
    },
  }),
  tool({
    name: "throws",
    description: "throws",
    input: v.object({}),
    run: () => {
      throw new Error("secret thrown message");
    },
  }),
  tool({ name: "needs_n", description: "needs a number", input: v.object({ n: v.number() }), run: ({ n }) => n }),
  tool({
    name: "asks",
    description: "asks once",
    input: v.object({}),
    run: async (_a, ctx) => (await ctx.elicit({ message: "ok?", schema: v.object({ ok: v.boolean() }) })).action,
  }),
  tool({
    name: "args",
    description: "records what it was given",
    input: v.looseObject({}),
    run: (a) => {
      seenArgs = a;
      return "seen";
    },
  }),
];

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN}-01`;

let session: Session;
beforeAll(() => {
  expect(ensureContextManager()).toBe(true);
  enableTracing(provider.getTracer("mcpbin"));
});
afterAll(() => resetTracing());
beforeEach(() => {
  exporter.reset();
  session = new Session(new Registry({ name: "spans-test", version: "1.0.0", tools }), () => {});
});

async function send(msg: unknown): Promise<any> {
  const line = await session.handleLine(typeof msg === "string" ? msg : JSON.stringify(msg));
  return line === undefined ? undefined : JSON.parse(line);
}
const spans = (): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === "mcpbin");
const only = (): ReadableSpan => {
  const s = spans();
  expect(s.length).toBe(1);
  return s[0]!;
};
async function handshake() {
  await send(initLine("2025-06-18"));
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  exporter.reset();
}
const call = (id: number, name: string, args: unknown, meta?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

describe("spans per message", () => {
  test("initialize and the initialized notification each get a SERVER span", async () => {
    const r = await send(initLine("2025-06-18", 1));
    assertValidResponse("2025-06-18", "initialize", r);
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const [init, note] = spans();
    expect(init!.name).toBe("initialize");
    expect(init!.kind).toBe(SpanKind.SERVER);
    expect(init!.attributes).toEqual({
      "mcp.method.name": "initialize",
      "network.transport": "pipe",
      "jsonrpc.request.id": "1",
      "mcp.protocol.version": "2025-06-18",
    });
    expect(note!.name).toBe("notifications/initialized");
    expect(note!.attributes["jsonrpc.request.id"]).toBeUndefined();
    expect(note!.status.code).toBe(SpanStatusCode.UNSET);
  });

  test("tools/call: name, attributes and the parent from params._meta.traceparent; nothing sensitive recorded", async () => {
    await handshake();
    const r = await send(
      call(
        7,
        "echo",
        { text: "secret-argument" },
        { traceparent: TRACEPARENT, tracestate: "rojo=00f067aa0ba902b7", progressToken: "secret-token" },
      ),
    );
    assertValidResponse("2025-06-18", "tools/call", r);
    expect(r!.result.content[0].text).toBe("secret-argument");
    const s = only();
    expect(s.name).toBe("tools/call echo");
    expect(s.kind).toBe(SpanKind.SERVER);
    expect(s.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "network.transport": "pipe",
      "jsonrpc.request.id": "7",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "mcp.protocol.version": "2025-06-18",
    });
    expect(s.spanContext().traceId).toBe(TRACE_ID);
    expect(s.parentSpanContext?.spanId).toBe(PARENT_SPAN);
    expect(s.parentSpanContext?.isRemote).toBe(true);
    expect(s.status.code).toBe(SpanStatusCode.UNSET);
    const dump = JSON.stringify({ a: s.attributes, e: s.events, l: s.links, n: s.name });
    for (const secret of ["secret-argument", "secret-token", TRACEPARENT, "rojo"]) expect(dump).not.toContain(secret);
  });

  test("a malformed traceparent is ignored: the span starts a new trace", async () => {
    await handshake();
    await send(call(8, "echo", { text: "x" }, { traceparent: "00-zzzz-not-a-trace-01", tracestate: 5 }));
    const s = only();
    expect(s.parentSpanContext).toBeUndefined();
    expect(s.spanContext().traceId).not.toBe(TRACE_ID);
  });

  test("_meta never reaches the tool", async () => {
    await handshake();
    await send(call(9, "args", { a: 1 }, { traceparent: TRACEPARENT }));
    expect(seenArgs).toEqual({ a: 1 });
  });

  test("the span is active across awaits: a span the tool starts is its child", async () => {
    await handshake();
    const r = await send(call(10, "slow", {}));
    expect(r!.result.content[0].text).toBe("ok");
    const server = only();
    const child = exporter.getFinishedSpans().find((s) => s.name === "author-work")!;
    expect(child).toBeDefined();
    expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(child.spanContext().traceId).toBe(server.spanContext().traceId);
    // The server span ends after its child; the SDK's anchored clocks can differ by microseconds, so allow 1 ms.
    expect(server.endTime[0] * 1e9 + server.endTime[1]).toBeGreaterThanOrEqual(
      child.endTime[0] * 1e9 + child.endTime[1] - 1e6,
    );
  });

  test("isError results: error.type tool_error; status ERROR for a failing tool, UNSET for invalid arguments", async () => {
    await handshake();
    await send(call(11, "fails", {}));
    await send(call(12, "throws", {}));
    await send(call(13, "needs_n", { n: "not a number" }));
    await send(call(14, "fails_later", {}));
    const [fails, throws, invalid, later] = spans();
    expect(later!.attributes["error.type"]).toBe("tool_error");
    expect(later!.status.code).toBe(SpanStatusCode.ERROR);
    expect(fails!.attributes["error.type"]).toBe("tool_error");
    expect(fails!.status.code).toBe(SpanStatusCode.ERROR);
    expect(throws!.attributes["error.type"]).toBe("tool_error");
    expect(throws!.status.code).toBe(SpanStatusCode.ERROR);
    expect(invalid!.attributes["error.type"]).toBe("tool_error");
    expect(invalid!.status.code).toBe(SpanStatusCode.UNSET);
    for (const s of spans()) {
      expect(s.attributes["rpc.response.status_code"]).toBeUndefined();
      expect(s.status.message).toBeUndefined();
      expect(JSON.stringify([s.attributes, s.events])).not.toContain("secret");
    }
  });

  test("JSON-RPC errors: the code as error.type and rpc.response.status_code; caller mistakes keep status UNSET", async () => {
    await handshake();
    const unknown = await send({ jsonrpc: "2.0", id: 20, method: "foo/bar" });
    expect(unknown!.error.code).toBe(-32601);
    const noTool = await send(call(21, "no_such_tool", {}));
    expect(noTool!.error.code).toBe(-32602);
    const [a, b] = spans();
    expect(a!.name).toBe("foo/bar");
    expect(a!.attributes["error.type"]).toBe("-32601");
    expect(a!.attributes["rpc.response.status_code"]).toBe("-32601");
    expect(a!.status.code).toBe(SpanStatusCode.UNSET);
    expect(b!.name).toBe("tools/call");
    expect(b!.attributes["gen_ai.tool.name"]).toBe("no_such_tool");
    expect(b!.attributes["error.type"]).toBe("-32602");
    expect(b!.status.code).toBe(SpanStatusCode.UNSET);
  });

  test("2026-07-28 requests carry the modern version; an unsupported claim (-32022) is a server-side error status", async () => {
    const r = await send({
      jsonrpc: "2.0",
      id: "m1",
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" }, _meta: { ...META, traceparent: TRACEPARENT } },
    });
    assertValidResponse("2026-07-28", "tools/call", r);
    await send({ jsonrpc: "2.0", id: "m2", method: "server/discover", params: { _meta: META } });
    const bad = await send({
      jsonrpc: "2.0",
      id: "m3",
      method: "tools/list",
      params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } },
    });
    expect(bad!.error.code).toBe(-32022);
    const [callSpan, discover, list] = spans();
    expect(callSpan!.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(callSpan!.attributes["jsonrpc.request.id"]).toBe("m1");
    expect(callSpan!.spanContext().traceId).toBe(TRACE_ID);
    expect(discover!.name).toBe("server/discover");
    expect(discover!.attributes["mcp.protocol.version"]).toBe("2026-07-28");
    expect(list!.attributes["mcp.protocol.version"]).toBeUndefined();
    expect(list!.attributes["error.type"]).toBe("-32022");
    expect(list!.status.code).toBe(SpanStatusCode.ERROR);
  });

  test("2026-07-28 rounds of one call: a span each, linked by mcpbin.call.id, counted by mcpbin.call.round", async () => {
    const meta = { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const r1 = await send(call(1, "asks", {}, meta));
    assertValidResponse("2026-07-28", "tools/call", r1);
    expect(r1.result.resultType).toBe("input_required");
    const r2 = await send({
      ...call(2, "asks", {}, meta),
      params: {
        name: "asks",
        arguments: {},
        _meta: meta,
        requestState: r1.result.requestState,
        inputResponses: { elicit_1: { action: "accept", content: { ok: true } } },
      },
    });
    expect(r2.result.content).toEqual([{ type: "text", text: "accept" }]);
    const [a, b] = spans();
    expect(a!.attributes["mcpbin.call.round"]).toBe(1);
    expect(b!.attributes["mcpbin.call.round"]).toBe(2);
    expect(typeof a!.attributes["mcpbin.call.id"]).toBe("string");
    expect(b!.attributes["mcpbin.call.id"]).toBe(a!.attributes["mcpbin.call.id"]);
  });

  test("no span for blank lines, parse failures, invalid envelopes or client responses", async () => {
    await handshake();
    await send("{not json");
    await send('{"jsonrpc":"1.0","id":1,"method":"ping"}');
    await send('{"jsonrpc":"2.0","id":null,"method":"ping"}');
    await send('{"jsonrpc":"2.0","id":5,"result":{}}');
    expect(spans().length).toBe(0);
  });

  test("with tracing off, no span is made", async () => {
    resetTracing();
    try {
      expect(tracing.on).toBe(false);
      await send(initLine("2025-06-18", 1));
      await send(call(2, "echo", { text: "x" }, { traceparent: TRACEPARENT }));
      expect(exporter.getFinishedSpans().length).toBe(0);
    } finally {
      enableTracing(provider.getTracer("mcpbin"));
    }
  });
});
