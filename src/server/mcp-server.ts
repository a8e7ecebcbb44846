/** @module The server object createServer() returns (its shape) and the registry behind each one: a leaf, so the in-memory client reaches a server without importing createServer(). */
import type { ServerHandle } from "../tools/types.ts";
import type { Registry } from "./registry.ts";

/**
 * A server made by {@link createServer}: the live tool set of {@link ServerHandle} (what a tool sees as
 * `ctx.server`), and the way to serve it.
 */
export interface McpServer extends ServerHandle {
  /**
   * Serves over stdio, or Streamable HTTP when asked (see `serve()`); resolves when the server stops.
   * Call it once.
   */
  serve(): Promise<void>;
}

const registries = new WeakMap<McpServer, Registry>();

/** @internal createServer() records the registry behind the server it made. */
export function rememberRegistry(server: McpServer, registry: Registry): void {
  registries.set(server, registry);
}

/**
 * The registry behind a server made by createServer() (internal: mcpbin dev --watch, the in-memory client).
 * @throws Error for an object createServer() did not make.
 */
export function registryOf(server: McpServer): Registry {
  const r = registries.get(server);
  if (r === undefined) throw new Error("not a server made by createServer()");
  return r;
}
