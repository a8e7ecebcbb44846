// What the OTLP tests share: the trace context they send, the OTel variables blanked, the clean-stdout check.
import { expect } from "bun:test";
import type { McpProcess } from "../helpers/proc.ts";

export const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
export const PARENT_SPAN = "00f067aa0ba902b7";
export const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN}-01`;
/** Every OTel variable blanked, so the tests do not depend on the environment they run in. */
export const NO_OTEL = {
  OTEL_SDK_DISABLED: "",
  OTEL_TRACES_EXPORTER: "",
  OTEL_EXPORTER_OTLP_ENDPOINT: "",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
  OTEL_EXPORTER_OTLP_PROTOCOL: "",
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "",
  OTEL_SERVICE_NAME: "",
  OTEL_RESOURCE_ATTRIBUTES: "",
};

/** Every stdout line of `p` is one of its `responses` JSON-RPC responses: tracing writes nothing there. */
export function expectCleanStdout(p: McpProcess, responses: number) {
  expect(p.lines.length).toBe(responses);
  for (const line of p.lines) {
    const m = JSON.parse(line);
    expect(m.jsonrpc).toBe("2.0");
    expect("result" in m || "error" in m).toBe(true);
  }
}
