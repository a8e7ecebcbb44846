// Tracing from source: author providers and lazy loading (no @opentelemetry package loaded without an OTel
// variable), exported to an OTLP/HTTP receiver on 127.0.0.1.
import { afterAll, describe, expect, test } from "bun:test";
import { HttpProcess, modernHeaders, post } from "../http/helpers.ts";
import { McpProcess, META } from "../helpers/proc.ts";
import { OtlpReceiver } from "./otlp-receiver.ts";
import { expectCleanStdout, NO_OTEL, PARENT_SPAN, TRACE_ID, TRACEPARENT } from "./otlp-shared.ts";

const receivers: OtlpReceiver[] = [];
afterAll(() => receivers.forEach((r) => r.stop()));
function receiver(opts?: { hang?: boolean }) {
  const r = new OtlpReceiver(opts);
  receivers.push(r);
  return r;
}

describe("tracing from source", () => {
  const FIXTURE = "test/telemetry/fixtures/traced.ts";

  test("with no OTel variable set, no @opentelemetry package is loaded at all", async () => {
    const p = McpProcess.source(FIXTURE, { env: NO_OTEL });
    try {
      const r = await p.request("tools/call", { name: "otel_modules", arguments: {}, _meta: META }, 1, "2026-07-28");
      expect(r.result.content[0].text).toBe("");
      p.closeStdin();
      expect(await p.exited).toBe(0);
    } finally {
      p.kill();
    }
  });

  test("the console exporter writes spans to stderr, never stdout, and loads the SDK", async () => {
    const p = McpProcess.source(FIXTURE, { env: { ...NO_OTEL, OTEL_TRACES_EXPORTER: "console" } });
    try {
      const r = await p.request("tools/call", { name: "otel_modules", arguments: {}, _meta: META }, 1, "2026-07-28");
      expect(r.result.content[0].text.split(",")).toContain("sdk-trace");
      p.closeStdin();
      expect(await p.exited).toBe(0);
      expectCleanStdout(p, 1);
      expect(p.stderr).toContain("tools/call otel_modules");
      expect(p.stderr).toMatch(/mcp\.method\.name["']?: ["']tools\/call["']/);
    } finally {
      p.kill();
    }
  });

  test("an author who registers a tracer provider in the entry script gets the spans, and the tool's own span is a child", async () => {
    const p = McpProcess.source(FIXTURE, { env: { ...NO_OTEL, AUTHOR_PROVIDER: "1" } });
    try {
      const r = await p.request(
        "tools/call",
        { name: "author_span", arguments: {}, _meta: { ...META, traceparent: TRACEPARENT } },
        1,
        "2026-07-28",
      );
      expect(r.result.content[0].text).toBe("done");
      p.closeStdin();
      expect(await p.exited).toBe(0);
      expectCleanStdout(p, 1);
      const spans = p.stderr
        .split("\n")
        .filter((l) => l.startsWith("AUTHOR-SPAN "))
        .map((l) => JSON.parse(l.slice(12)));
      const server = spans.find((s) => s.name === "tools/call author_span");
      const child = spans.find((s) => s.name === "author-child");
      expect(server.kind).toBe(1);
      expect(server.traceId).toBe(TRACE_ID);
      expect(server.parentSpanId).toBe(PARENT_SPAN);
      expect(child.traceId).toBe(TRACE_ID);
      expect(child.parentSpanId).toBe(server.spanId);
    } finally {
      p.kill();
    }
  });

  test("over Streamable HTTP the spans say network.transport=tcp and keep the remote parent", async () => {
    const r = receiver();
    const h = await HttpProcess.source(FIXTURE, {
      env: { ...NO_OTEL, OTEL_EXPORTER_OTLP_ENDPOINT: r.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
    });
    try {
      const res = await post(
        h.url,
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "otel_modules", arguments: {}, _meta: { ...META, traceparent: TRACEPARENT } },
        },
        modernHeaders("tools/call", "otel_modules"),
      );
      expect(res.status).toBe(200);
      h.kill("SIGTERM");
      await h.exited;
      const s = r.spans.find((x) => x.name === "tools/call otel_modules")!;
      expect(s).toBeDefined();
      expect(s.attributes["network.transport"]).toBe("tcp");
      expect(s.attributes["network.protocol.name"]).toBe("http");
      expect(s.attributes["mcp.protocol.version"]).toBe("2026-07-28");
      expect(s.traceId).toBe(TRACE_ID);
      expect(s.parentSpanId).toBe(PARENT_SPAN);
    } finally {
      h.kill();
    }
  });
});
