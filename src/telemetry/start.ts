/** @module Tracing start-up and shutdown for serve(): reads the environment, loads the SDK only when asked, flushes at exit. */
import { logLine } from "../runtime/log-name.ts";
import { OTEL_API_KEY } from "../runtime/contract.ts";
import { readTracingEnv } from "./config.ts";
import { resetTracing, tracing } from "./state.ts";

/** Longest wait for pending spans at shutdown, ms; an unreachable collector never holds the exit longer. */
export const FLUSH_TIMEOUT_MS = 2_000;

let shutdown: (() => Promise<void>) | undefined;

/** True when some code in this process has registered a global tracer provider through @opentelemetry/api 1.x. */
function providerRegistered(): boolean {
  const api = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[OTEL_API_KEY];
  return api?.trace !== undefined;
}

/**
 * Turns tracing on when the environment or the entry script asks for it (OpenTelemetry semantic
 * conventions for MCP; OpenTelemetry "Environment Variable Specification"):
 * - `OTEL_SDK_DISABLED=true`: off, whatever else is set.
 * - a tracer provider already registered by the entry script: spans go to it.
 * - `OTEL_TRACES_EXPORTER` naming `otlp` or `console`, or an OTLP endpoint variable: the SDK is
 *   loaded (dynamic imports, so a compiled binary embeds it but evaluates it only here) and registered.
 * - otherwise: off, and nothing beyond this module and `state.ts` is loaded.
 * @param serviceName - the server's name, the default `service.name`.
 * @param transport - `pipe` (stdio, the default) or `tcp` (Streamable HTTP), for `network.transport`.
 * @returns resolves once tracing is ready (immediately when off). Never rejects: a failure is one stderr line.
 */
export async function startTracing(serviceName: string, transport: "pipe" | "tcp" = "pipe"): Promise<void> {
  const env = readTracingEnv();
  if (env.disabled) return;
  for (const w of env.warnings) logLine(`${w}`);
  const authorProvider = providerRegistered();
  if (!authorProvider && env.exporters.length === 0) return;
  try {
    const spans = await import("./spans.ts");
    const api = await import("@opentelemetry/api");
    if (authorProvider) {
      if (env.exporters.length > 0)
        logLine("a tracer provider is already registered; OTEL_TRACES_EXPORTER and the OTLP variables are left to it");
      (await import("./context.ts")).ensureContextManager();
    } else {
      shutdown = await (await import("./sdk.ts")).installSdk(env, serviceName);
    }
    spans.enableTracing(api.trace.getTracer("mcpbin"), transport);
  } catch (e) {
    resetTracing();
    logLine(`tracing is off: setting up OpenTelemetry failed: ${(e as Error)?.message ?? e}`);
  }
}

/**
 * Flushes and shuts down the SDK this module installed, waiting at most {@link FLUSH_TIMEOUT_MS}.
 * Spans of a provider the entry script registered are the script's to flush.
 * @returns resolves when flushed or when the time is up; never rejects.
 */
export async function stopTracing(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  if (!tracing.on || !stop) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((r) => (timer = setTimeout(r, FLUSH_TIMEOUT_MS)));
  await Promise.race([stop().catch(() => {}), late]);
  clearTimeout(timer);
}
