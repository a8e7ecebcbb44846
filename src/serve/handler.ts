/** @module mcpHandler(): the same server as serve() as a fetch handler, `(Request) => Promise<Response>`, for an existing Bun.serve, Hono or Elysia app. */
import "./capabilities.ts";
import { enableTasks } from "../tasks/register.ts";
import { Registry } from "../server/registry.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import type { TimeoutControl } from "../transport/fetch-handler.ts";
import { resolveHttp } from "../transport/http-options.ts";
import { resolveAuth } from "../auth/options.ts";
import type { HttpOptions } from "../shared/http-options.ts";

/** The handler {@link mcpHandler} returns. */
export interface McpHandler {
  /**
   * Answers one request to the MCP endpoint (MCP basic/transports, Streamable HTTP, every era).
   * @param request - the request as the app received it (Hono: `c.req.raw`).
   * @param server - the Bun server that received it (Bun.serve's second `fetch` argument; in Hono on Bun,
   *   `c.env`): lets a long tool call lift Bun's 10-second idle timeout. Optional.
   */
  (request: Request, server?: TimeoutControl): Promise<Response>;
  /** Ends the legacy sessions and aborts calls in flight (for an app's own shutdown). */
  close(reason?: string): void;
}

/**
 * The same server as `serve()`, as a fetch handler to mount in an existing app:
 * `app.all("/mcp", (c) => mcp(c.req.raw, c.env))` in Hono, or a route of `Bun.serve({ fetch })`.
 * Every HTTP rule of `--http` applies (stateless 2026-07-28 and legacy sessions with `Mcp-Session-Id`,
 * Origin checks, the bearer token of `http.token` or `MCPBIN_HTTP_TOKEN`, body and time limits, CORS).
 * The app does the routing: every request given to the handler is for the endpoint (no `/healthz`).
 * Differences from `serve({ http })`: the Host header is checked only when `http.allowedHosts` is given
 * (the app, not mcpbin, decides where it listens), the access log is off unless `http.accessLog: true`,
 * stdout is left to the app, and tracing is not started. The HTTP transport's code is imported when this is called
 * (not when mcpbin is), and the first request waits for it.
 * @param options - what `serve()` takes; `http` holds the transport options (port and host are unused).
 * @returns the handler.
 * @throws ToolDefinitionError or HttpOptionsError (synchronously) on a bad option or duplicate tool.
 */
export function mcpHandler(options: ServerOptions): McpHandler {
  const registry = new Registry(options);
  enableTasks(options);
  const given: HttpOptions = typeof options.http === "object" && options.http !== null ? options.http : {};
  const o = resolveHttp(
    [],
    { host: "0.0.0.0", accessLog: false, ...given, port: 0 },
    { MCPBIN_HTTP_TOKEN: process.env.MCPBIN_HTTP_TOKEN },
  )!;
  // A bad http.auth throws here, not on a request; the app decides where it listens, so the resource is always given.
  if (o.auth !== undefined) resolveAuth(o.auth, false);
  const loading = import("../transport/fetch-handler.ts").then((m) => m.createHttpHandler(registry, o, false));
  loading.catch(() => {}); // a failure is each request's rejection, not an unhandled one
  const mcp = (async (request: Request, server?: TimeoutControl) =>
    (await loading).handle(request, server)) as McpHandler;
  mcp.close = (reason = "The server is shutting down; the call was aborted") =>
    void loading.then((handler) => {
      handler.abortAll(reason);
      handler.close();
    });
  return mcp;
}
