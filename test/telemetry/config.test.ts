// Which environment turns tracing on, and what a bundled server loads at start when it is off.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { readTracingEnv, type TraceExporterName } from "../../src/telemetry/config.ts";
import { ROOT } from "../helpers/proc.ts";

describe("readTracingEnv", () => {
  const cases: [string, Record<string, string>, TraceExporterName[], string?][] = [
    ["nothing set: off", {}, []],
    ["an OTLP endpoint alone: otlp", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, ["otlp"]],
    [
      "the traces endpoint alone: otlp",
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" },
      ["otlp"],
    ],
    ["console", { OTEL_TRACES_EXPORTER: "console" }, ["console"]],
    ["a list, spaces and case ignored", { OTEL_TRACES_EXPORTER: " OTLP , console" }, ["otlp", "console"]],
    ["none wins over an endpoint", { OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" }, []],
    [
      "OTEL_SDK_DISABLED=true wins over everything",
      { OTEL_SDK_DISABLED: "TRUE", OTEL_TRACES_EXPORTER: "console", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" },
      [],
    ],
    [
      "OTEL_SDK_DISABLED=false changes nothing",
      { OTEL_SDK_DISABLED: "false", OTEL_TRACES_EXPORTER: "console" },
      ["console"],
    ],
    ["an unknown exporter is ignored with a warning", { OTEL_TRACES_EXPORTER: "zipkin" }, [], "zipkin"],
    ["empty values count as unset", { OTEL_TRACES_EXPORTER: "", OTEL_EXPORTER_OTLP_ENDPOINT: "" }, []],
  ];
  for (const [name, env, exporters, warning] of cases) {
    test(name, () => {
      const r = readTracingEnv(env);
      expect(r.exporters).toEqual(exporters);
      if (warning) expect(r.warnings.join("\n")).toContain(warning);
      else expect(r.warnings).toEqual([]);
    });
  }

  test("protocol: http/protobuf by default, http/json on request, the traces-specific variable first, grpc warned", () => {
    expect(readTracingEnv({}).protocol).toBe("http/protobuf");
    expect(readTracingEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }).protocol).toBe("http/json");
    expect(
      readTracingEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" })
        .protocol,
    ).toBe("http/protobuf");
    const grpc = readTracingEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(grpc.protocol).toBe("http/protobuf");
    expect(grpc.warnings.join()).toContain("grpc");
  });
});

test("a bundled server imports none of the Node built-ins the OpenTelemetry SDK uses at start (they load only with tracing on)", async () => {
  const out = await Bun.build({
    entrypoints: [resolve(ROOT, "examples/toolkit/server.ts")],
    target: "bun",
    format: "esm",
  });
  expect(out.success).toBe(true);
  const code = await out.outputs[0]!.text();
  // The SDK is in the bundle (embedded for when tracing is turned on)…
  expect(code).toContain("BatchSpanProcessor");
  // …but its built-ins are required lazily, not hoisted into top-level imports.
  const topLevel = code.match(/^import .* from "(node:)?[a-z_]+";$/gm) ?? [];
  expect(topLevel.filter((l) => /"(node:)?(zlib|async_hooks|http|https|stream)"/.test(l))).toEqual([]);
});
