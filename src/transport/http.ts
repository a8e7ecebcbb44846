/** @module The Streamable HTTP transport on Bun.serve: one endpoint, stateless 2026-07-28, legacy sessions, safety checks, drain on SIGTERM. */
import type { Server } from "bun";
import type { Registry } from "../server/registry.ts";
import { HttpOptionsError, type ResolvedHttpOptions } from "./http-options.ts";
import { createHttpHandler } from "./fetch-handler.ts";
import { guardStdout } from "../runtime/stdout-guard.ts";
import { logName } from "../runtime/log-name.ts";

/** A running HTTP server. */
export interface HttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8080/mcp`. */
  readonly url: string;
  /** Resolves once the server has drained and stopped. */
  readonly stopped: Promise<void>;
  /** Answers `/healthz` 503 for `drainMs` while still serving, then stops accepting, lets requests in flight finish within `shutdownGraceMs`, aborts the rest, stops. */
  stop(): Promise<void>;
}

/**
 * Serves a registry over Streamable HTTP (MCP basic/transports) until SIGTERM/SIGINT.
 * Prints `<name>: MCP over HTTP at <url>` (src/runtime/log-name.ts) on stderr once listening.
 * @param registry - the server.
 * @param o - resolved HTTP options.
 * @returns the running server; `stopped` settles after the drain.
 * @throws Error when the address cannot be bound (naming it).
 */
export function serveHttp(registry: Registry, o: ResolvedHttpOptions): HttpServer {
  guardStdout(); // tools' console.log goes to stderr here too: stdout stays clean in every mode
  const handler = createHttpHandler(registry, o, true);

  let server: Server<undefined>;
  try {
    server = Bun.serve({
      hostname: o.host,
      port: o.port,
      // Never share a port: two servers on one port would take turns answering and break sessions.
      reusePort: false,
      // Content-Length and the body read are checked below (a logged 413); Bun refuses far larger
      // bodies itself before the handler runs (unlogged), so the limit holds for chunked bodies too.
      maxRequestBodySize: Math.max(2 * o.maxBodyBytes, o.maxBodyBytes + 1024 * 1024),
      development: false,
      fetch: (req, server) => handler.handle(req, server),
      error: (e) => {
        process.stderr.write(`${logName()}: http handler failed: ${e?.stack ?? e}\n`);
        return new Response("Internal Server Error", { status: 500 });
      },
    });
  } catch (e) {
    const inUse = (e as { code?: unknown })?.code === "EADDRINUSE" || /in use/i.test(String((e as Error)?.message));
    throw new HttpOptionsError(
      inUse
        ? `cannot serve HTTP on ${o.host}:${o.port}: the port is in use (another server listens there); choose another with --http [host:]port`
        : `cannot serve HTTP on ${o.host}:${o.port}: ${String((e as Error)?.message ?? e).split("\n")[0]}`,
    );
  }
  const url = `http://${o.host.includes(":") ? `[${o.host}]` : o.host}:${server.port}${o.path}`;
  handler.bound(url);
  // The warning comes before the address line that tells a waiting process the server is up.
  if (!o.token && !isLoopback(o.host)) {
    process.stderr.write(
      `${logName()}: WARNING: listening on ${o.host} without a token: anyone who can reach port ${server.port} can call every tool; ` +
        `set MCPBIN_HTTP_TOKEN (or http.token) to require a bearer token, or bind 127.0.0.1\n`,
    );
  }
  process.stderr.write(`${logName()}: MCP over HTTP at ${url}\n`);

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      handler.announceDrain();
      if (o.drainMs > 0) await sleep(o.drainMs); // still serving: the balancer sees 503 on /healthz and moves on
      handler.drain();
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      void server.stop(false);
      const grace = registry.options.shutdownGraceMs;
      await Promise.race([handler.idle(), sleep(grace)]);
      handler.abortAll("The server is shutting down; the call was aborted");
      await Promise.race([handler.idle(), sleep(1000)]);
      await sleep(20); // let the last bytes leave
      handler.close();
      void server.stop(true);
      resolveStopped();
    })());
  const onSignal = () => void stop();
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return { url, stopped, stop };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** True for a host only this machine reaches: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "::ffff:127.0.0.1";
}
