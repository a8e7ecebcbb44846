/** @module serve(): runs a server for the process over stdio, or over Streamable HTTP when asked. */
import { Registry } from "./server/registry.ts";
import type { ServerOptions } from "./server/options.ts";
import { serveStdio } from "./transport/stdio.ts";
import { HttpOptionsError, isCompiledExecutable, resolveHttp, type ResolvedHttpOptions } from "./transport/http-options.ts";
import { startTracing, stopTracing } from "./telemetry/start.ts";
import { installedCollector } from "./runtime/collector.ts";

/**
 * Runs the server with these tools: over stdio (MCP basic/transports stdio) by default, or over
 * Streamable HTTP when the process got `--http [host:]port` or `options.http` is set (the flag wins;
 * `--stdio` forces stdio, wherever it stands). A script that defines tools and ends with
 * `await serve({...})` is a complete server. In a compiled executable any other option (an argument
 * starting with `-`, before a `--`) is refused: one line on stderr, exit code 2.
 * Tracing (src/telemetry) starts first when the OpenTelemetry environment variables or a registered
 * tracer provider ask for it, and pending spans are flushed (bounded) before the promise settles.
 * @param options - name, version, tools and the knobs of {@link ServerOptions}.
 * @returns a promise that settles once stdin has closed (HTTP: once SIGTERM/SIGINT drained the
 *   requests in flight) and every response is written; the process then exits with code 0 unless it
 *   ends sooner by itself.
 * @throws ToolDefinitionError (synchronously, before reading) on a bad option or duplicate tool;
 *   HttpOptionsError on a bad `--http` value or `http` option (a compiled executable prints it as one
 *   line and exits 2 instead). Under `mcpbin list`/`mcpbin call` (a
 *   collector is installed, see src/runtime/collector.ts) it only hands the options over and resolves.
 */
export function serve(options: ServerOptions): Promise<void> {
  // For `mcpbin dev`, which says so when a script finishes loading without calling serve().
  (globalThis as Record<symbol, unknown>)[Symbol.for("mcpbin.served")] = true;
  const collect = installedCollector();
  if (collect) return Promise.resolve(collect(options));
  const registry = new Registry(options);
  const compiled = isCompiledExecutable();
  let http: ResolvedHttpOptions | undefined;
  try {
    http = resolveHttp(process.argv.slice(2), options.http, process.env, compiled);
  } catch (e) {
    // A compiled executable's user mistyped its command line: one line and exit 2, no stack trace.
    if (!(compiled && e instanceof HttpOptionsError)) throw e;
    process.stderr.write(`mcpbin: ${e.message}\n`);
    process.exit(2);
  }
  return startTracing(registry.options.name, http ? "tcp" : "pipe")
    .then(async () => (http ? (await import("./transport/http.ts")).serveHttp(registry, http).stopped : serveStdio(registry)))
    .then(stopTracing)
    .then(() => {
      // Nothing of ours holds the event loop now (stdin cancelled, timers cleared, handlers removed),
      // so the process normally ends at once. Only tool code can still hold it (a timer or socket of a
      // tool that ignored its abort signal): that must not keep an orphan alive after stdin closed.
      setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
    });
}
