// Tracing end to end: the compiled toolkit example exports to an OTLP/HTTP receiver on 127.0.0.1 (http/json and
// http/protobuf), flushes on EOF and SIGTERM, shrugs off an unreachable collector (from source: otlp-source.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { compileFixture, McpProcess, META } from "../helpers/proc.ts";
import { OtlpReceiver, type ReceivedSpan } from "./otlp-receiver.ts";
import { expectCleanStdout, NO_OTEL, PARENT_SPAN, TRACE_ID, TRACEPARENT } from "./otlp-shared.ts";

let bin: string;
const receivers: OtlpReceiver[] = [];
beforeAll(async () => {
  bin = await compileFixture("examples/toolkit/server.ts", "toolkit-otel");
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load
afterAll(() => receivers.forEach((r) => r.stop()));
function receiver(opts?: { hang?: boolean }) {
  const r = new OtlpReceiver(opts);
  receivers.push(r);
  return r;
}
const byId = (spans: ReceivedSpan[], id: string) => spans.find((s) => s.attributes["jsonrpc.request.id"] === id)!;

describe("OTLP export from the compiled example", () => {
  test("http/json: span names, attributes, remote parent from traceparent, resource from the environment; nothing forbidden; stdout clean", async () => {
    const r = receiver();
    const p = new McpProcess([bin], {
      env: {
        ...NO_OTEL,
        OTEL_EXPORTER_OTLP_ENDPOINT: r.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "toolkit-e2e",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test,team=tools",
      },
    });
    try {
      await p.handshake("2025-06-18");
      const meta = { traceparent: TRACEPARENT, tracestate: "rojo=00f067aa0ba902b7", progressToken: "tok-secret" };
      const ok = await p.request(
        "tools/call",
        { name: "text_stats", arguments: { text: "SECRET-ARG one two" }, _meta: meta },
        2,
        "2025-06-18",
      );
      expect(ok.result.structuredContent.words).toBe(3);
      const failed = await p.request(
        "tools/call",
        { name: "convert_units", arguments: { value: 1, from: "km", to: "kg" } },
        3,
        "2025-06-18",
      );
      expect(failed.result.isError).toBe(true);
      const invalid = await p.request("tools/call", { name: "text_stats", arguments: { text: 5 } }, 4, "2025-06-18");
      expect(invalid.result.isError).toBe(true);
      const unknown = await p.request("resources/list", {}, 5);
      expect(unknown.error.code).toBe(-32601);
      await p.request("tools/list", {}, 6, "2025-06-18");
      await p.request("server/discover", { _meta: META }, 7, "2026-07-28");
      p.send("");
      p.send("{not json");
      await p.response(null);
      p.closeStdin();
      expect(await p.exited).toBe(0);
      expectCleanStdout(p, 8);

      const spans = r.spans;
      expect(r.exports.every((e) => e.path === "/v1/traces" && e.contentType.startsWith("application/json"))).toBe(
        true,
      );
      expect(spans.map((s) => s.name).sort()).toEqual(
        [
          "initialize",
          "notifications/initialized",
          "tools/call text_stats",
          "tools/call convert_units",
          "tools/call text_stats",
          "resources/list",
          "tools/list",
          "server/discover",
        ].sort(),
      );
      for (const s of spans) {
        expect(s.kind).toBe(2);
        expect(s.scope).toBe("mcpbin");
        expect(s.resource["service.name"]).toBe("toolkit-e2e");
        expect(s.resource["team"]).toBe("tools");
        expect(s.attributes["network.transport"]).toBe("pipe");
      }
      const call = byId(spans, "2");
      expect(call.traceId).toBe(TRACE_ID);
      expect(call.parentSpanId).toBe(PARENT_SPAN);
      expect(call.attributes).toEqual({
        "mcp.method.name": "tools/call",
        "network.transport": "pipe",
        "jsonrpc.request.id": "2",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "text_stats",
        "mcp.protocol.version": "2025-06-18",
      });
      expect(call.status.code).toBe(0);
      expect(byId(spans, "3").attributes["error.type"]).toBe("tool_error");
      expect(byId(spans, "3").status.code).toBe(2);
      expect(byId(spans, "4").attributes["error.type"]).toBe("tool_error");
      expect(byId(spans, "4").status.code).toBe(0);
      expect(byId(spans, "5").attributes["rpc.response.status_code"]).toBe("-32601");
      expect(byId(spans, "5").status.code).toBe(0);
      expect(byId(spans, "7").attributes["mcp.protocol.version"]).toBe("2026-07-28");
      // The inherited W3C tracestate travels in the span context (OTLP Span.trace_state), as Trace Context
      // requires of a participant; it is never an attribute. Nothing else from the request or response is sent.
      expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain("rojo");
      const raw = r.exports.map((e) => e.raw).join("\n");
      for (const forbidden of [
        "SECRET-ARG",
        "tok-secret",
        TRACEPARENT,
        "cannot convert",
        "Method not found",
        "structuredContent",
        "_meta",
        "progressToken",
        "words",
      ]) {
        expect(raw).not.toContain(forbidden);
      }
    } finally {
      p.kill();
    }
  });

  test("http/protobuf via OTEL_TRACES_EXPORTER=otlp and the traces endpoint; SIGTERM flushes", async () => {
    const r = receiver();
    const p = new McpProcess([bin], {
      env: { ...NO_OTEL, OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${r.url}/custom/traces` },
    });
    try {
      const res = await p.request(
        "tools/call",
        { name: "slugify", arguments: { text: "Hello World" }, _meta: { ...META, traceparent: TRACEPARENT } },
        "a",
        "2026-07-28",
      );
      expect(res.result.content[0].text).toBe("hello-world");
      p.proc.kill("SIGTERM");
      await p.exited;
      expectCleanStdout(p, 1);
      expect(r.exports.length).toBeGreaterThan(0);
      expect(r.exports[0]!.path).toBe("/custom/traces");
      expect(r.exports[0]!.contentType).toBe("application/x-protobuf");
      const [s] = r.spans;
      expect(s!.name).toBe("tools/call slugify");
      expect(s!.traceId).toBe(TRACE_ID);
      expect(s!.parentSpanId).toBe(PARENT_SPAN);
      expect(s!.attributes["mcp.protocol.version"]).toBe("2026-07-28");
      expect(s!.attributes["jsonrpc.request.id"]).toBe("a");
      expect(s!.resource["service.name"]).toBe("toolkit");
    } finally {
      p.kill();
    }
  });

  test("OTEL_SDK_DISABLED=true wins over an endpoint: nothing is exported", async () => {
    const r = receiver();
    const p = new McpProcess([bin], {
      env: { ...NO_OTEL, OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: r.url },
    });
    await p.request("tools/call", { name: "slugify", arguments: { text: "x" }, _meta: META }, 1, "2026-07-28");
    p.closeStdin();
    expect(await p.exited).toBe(0);
    expect(r.exports.length).toBe(0);
  });

  for (const kind of ["refuses connections", "never answers"] as const) {
    test(`a collector that ${kind} neither delays responses nor holds the exit beyond the flush bound`, async () => {
      let url: string;
      if (kind === "refuses connections") {
        const closed = new OtlpReceiver();
        url = closed.url;
        closed.stop();
      } else {
        url = receiver({ hang: true }).url;
      }
      const p = new McpProcess([bin], { env: { ...NO_OTEL, OTEL_EXPORTER_OTLP_ENDPOINT: url } });
      try {
        await p.handshake("2025-11-25");
        for (let id = 2; id < 6; id++) {
          const res = await p.request(
            "tools/call",
            { name: "slugify", arguments: { text: `T ${id}` } },
            id,
            "2025-11-25",
          );
          expect(res.result.content[0].text).toBe(`t-${id}`);
        }
        const closedAt = performance.now();
        p.closeStdin();
        expect(await p.exited).toBe(0);
        // The flush bound is 2 s (FLUSH_TIMEOUT_MS); allow generous slack on a loaded 2-core machine.
        expect(performance.now() - closedAt).toBeLessThan(8_000);
        expectCleanStdout(p, 5);
      } finally {
        p.kill();
      }
    });
  }
});
