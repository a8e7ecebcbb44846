/** @module The server object createServer() returns (its shape) and the registry behind each one: a leaf, so the in-memory client reaches a server without importing createServer(). */
import type { ServerHandle } from "../shared/server-handle.ts";
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
  /**
   * Serves another server made by createServer() under a prefix: its tools as `<prefix>__<tool>`, its resources
   * (URIs rewritten reversibly), templates, prompts, completions and apps, live (its changes reach this
   * server's clients). Its middleware runs inside this server's. `serve()` waits for mounts under way.
   * @returns the mount (its tool names, and `unmount()`, which works while serving).
   * @throws ToolDefinitionError for a bad prefix or option, a server not made by createServer(), or a prefix in use.
   */
  mount(child: McpServer, options: MountOptions): Promise<MountedServer>;
}

/** Options of {@link McpServer.mount}. */
export interface MountOptions {
  /** Starts every name: `<prefix>__<tool>`; 1–32 letters, digits or hyphens. */
  readonly prefix: string;
  /** Only the child's tools whose names match one of these globs (Bun.Glob). */
  readonly include?: readonly string[];
  /** The child's tools whose names match one of these globs are left out. */
  readonly exclude?: readonly string[];
}

/** A mounted server, from {@link McpServer.mount}. */
export interface MountedServer {
  readonly prefix: string;
  /** The names its tools are served under now. */
  readonly tools: readonly string[];
  /** Takes its tools and content away (clients are told); resolves once its connection is closed. */
  unmount(): Promise<void>;
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
