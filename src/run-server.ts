/** @module Runs a server's Registry for the process: over stdio, or over Streamable HTTP when asked; tracing around it. */
import type { Registry } from "./server/registry.ts";
import type { ServerOptions } from "./server/options.ts";
import { serveStdio } from "./transport/stdio.ts";
import { HttpOptionsError, isCompiledExecutable, resolveHttp, type ResolvedHttpOptions } from "./transport/http-options.ts";
import { startTracing, stopTracing } from "./telemetry/start.ts";
import { installedCollector } from "./runtime/collector.ts";

/**
 * Serves a registry (see `serve()`): under `mcpbin list`/`call`/`build` (a collector is installed) it only
 * hands the options over, with the tools served at that moment, and resolves.
 * @param registry - the server.
 * @param given - the options it was made from.
 * @returns a promise that settles once the server stopped (stdin closed, or HTTP drained).
 * @throws HttpOptionsError on a bad `--http` value or `http` option (a compiled executable prints it as one line and exits 2).
 */
export function serveRegistry(registry: Registry, given: ServerOptions): Promise<void> {
  // For `mcpbin dev`, which says so when a script finishes loading without calling serve().
  (globalThis as Record<symbol, unknown>)[Symbol.for("mcpbin.served")] = true;
  const collect = installedCollector();
  if (collect) return Promise.resolve(collect({ ...given, tools: [...registry.tools.values()] }));
  const compiled = isCompiledExecutable();
  let http: ResolvedHttpOptions | undefined;
  try {
    http = resolveHttp(process.argv.slice(2), given.http, process.env, compiled);
  } catch (e) {
    // A compiled executable's user mistyped its command line: one line and exit 2, no stack trace.
    if (!(compiled && e instanceof HttpOptionsError)) throw e;
    process.stderr.write(`mcpbin: ${e.message}\n`);
    process.exit(2);
  }
  return startTracing(registry.options.name, http ? "tcp" : "pipe")
    .then(async () => {
      if (!http) return serveStdio(registry);
      const { serveHttp } = await import("./transport/http.ts");
      let served: ReturnType<typeof serveHttp>;
      try {
        served = serveHttp(registry, http);
      } catch (e) {
        // The port is taken (or cannot be bound): one line and exit 1, whoever holds it.
        if (!(e instanceof HttpOptionsError)) throw e;
        process.stderr.write(`${compiled ? executableName() : "mcpbin"}: ${e.message}\n`);
        process.exit(1);
      }
      return served.stopped;
    })
    .then(stopTracing)
    .then(() => {
      // Nothing of ours holds the event loop now (stdin cancelled, timers cleared, handlers removed),
      // so the process normally ends at once. Only tool code can still hold it (a timer or socket of a
      // tool that ignored its abort signal): that must not keep an orphan alive after stdin closed.
      setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
    });
}

/** The running executable's own file name, without `.exe`. */
function executableName(): string {
  return process.execPath.split(/[\\/]/).pop()!.replace(/\.exe$/i, "");
}
