/** @module The OpenTelemetry SDK set up from environment variables: provider, processors, exporters, resource (loaded only when tracing is on). */
import { logLine } from "../runtime/log-name.ts";
import type { DiagLogger } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace";
import type { TracingEnv } from "./config.ts";
import { ensureContextManager } from "./context.ts";

// `require`, not `import`: the packages' CommonJS builds keep their imports of Node built-ins lazy in a
// compiled binary (see spans.ts); every specifier is a literal so `bun build --compile` embeds it.
const { diag, DiagLogLevel, propagation, trace } = require("@opentelemetry/api") as typeof import("@opentelemetry/api");
const { W3CTraceContextPropagator } = require("@opentelemetry/core") as typeof import("@opentelemetry/core");
const { defaultResource, detectResources, envDetector, resourceFromAttributes } =
  require("@opentelemetry/resources") as typeof import("@opentelemetry/resources");
const { BatchSpanProcessor, ConsoleSpanExporter, TracerProvider } =
  require("@opentelemetry/sdk-trace") as typeof import("@opentelemetry/sdk-trace");

/**
 * `ConsoleSpanExporter` printing to stderr: the SDK's own prints with `console.dir`, which is stdout
 * in Bun, and stdout carries protocol lines only.
 */
class StderrSpanExporter extends ConsoleSpanExporter {
  /** Prints each span as the SDK's console exporter formats it, on stderr. */
  override export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    const info = (this as unknown as { _exportInfo(s: ReadableSpan): unknown })._exportInfo.bind(this);
    for (const span of spans) process.stderr.write(Bun.inspect(info(span), { depth: 3 }) + "\n");
    done({ code: 0 });
  }
}

/** Diagnostics of the SDK (failed exports and the like) as single lines on stderr. */
const stderrLogger: DiagLogger = {
  error: (m, ...a) => logLine(`opentelemetry: ${[m, ...a].map(String).join(" ")}`),
  warn: (m, ...a) => logLine(`opentelemetry: ${[m, ...a].map(String).join(" ")}`),
  info: () => {},
  debug: () => {},
  verbose: () => {},
};

/**
 * Builds and registers a global TracerProvider with a BatchSpanProcessor per exporter named by
 * `OTEL_TRACES_EXPORTER` (`otlp`: the OTLP/HTTP exporter for `OTEL_EXPORTER_OTLP_PROTOCOL`, which
 * reads endpoint, headers and timeout itself; `console`: stderr). The resource comes from
 * `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`, with `service.name` defaulting to the server's name.
 * @param env - the parsed environment (exporters not empty).
 * @param serviceName - `serverInfo.name`, used when `OTEL_SERVICE_NAME` is unset.
 * @returns the provider's shutdown (flushes pending spans); undefined when a provider was already registered.
 */
export async function installSdk(env: TracingEnv, serviceName: string): Promise<(() => Promise<void>) | undefined> {
  diag.setLogger(stderrLogger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  const processors: SpanProcessor[] = [];
  for (const name of env.exporters) {
    let exporter: SpanExporter;
    if (name === "console") exporter = new StderrSpanExporter();
    else if (env.protocol === "http/json")
      exporter = new (
        require("@opentelemetry/exporter-trace-otlp-http") as typeof import("@opentelemetry/exporter-trace-otlp-http")
      ).OTLPTraceExporter();
    else
      exporter = new (
        require("@opentelemetry/exporter-trace-otlp-proto") as typeof import("@opentelemetry/exporter-trace-otlp-proto")
      ).OTLPTraceExporter();
    processors.push(new BatchSpanProcessor({ exporter }));
  }
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({ resource, spanProcessors: processors });
  if (!trace.setGlobalTracerProvider(provider)) return undefined;
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  ensureContextManager();
  return () => provider.shutdown();
}
