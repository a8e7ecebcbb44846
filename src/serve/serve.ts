/** @module serve(): runs a server for the process over stdio, or over Streamable HTTP when asked. */
import { createServer } from "./create-server.ts";
import type { ServerOptions } from "../shared/server-options.ts";
/**
 * Runs the server with these tools: over stdio (MCP basic/transports stdio) by default, or over
 * Streamable HTTP when the process got `--http [host:]port` or `options.http` is set (the flag wins;
 * `--stdio` forces stdio, wherever it stands). A script that defines tools and ends with
 * `await serve({...})` is a complete server. In a compiled executable any other option (an argument
 * starting with `-`, before a `--`) is refused: one line on stderr, exit code 2.
 * Tracing (src/telemetry) starts first when the OpenTelemetry environment variables or a registered
 * tracer provider ask for it, and pending spans are flushed (bounded) before the promise settles.
 * It is `createServer(options).serve()` (src/serve/create-server.ts).
 * @param options - name, version, tools and the knobs of {@link ServerOptions}.
 * @returns a promise that settles once stdin has closed (HTTP: once SIGTERM/SIGINT drained the
 *   requests in flight) and every response is written; the process then exits with code 0 unless it
 *   ends sooner by itself.
 * @throws ToolDefinitionError (synchronously, before reading) on a bad option or duplicate tool;
 *   HttpOptionsError on a bad `--http` value or `http` option (a compiled executable prints it as one
 *   line and exits 2 instead). Under `mcpbin list`/`mcpbin call` (a
 *   collector is installed, see src/loader/collector.ts) it only hands the options over and resolves.
 */
export function serve(options: ServerOptions): Promise<void> {
  return createServer(options).serve();
}
