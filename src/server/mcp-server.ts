/** @module The server object createServer() returns (its shape) and the registry behind each one: a leaf, so the in-memory client reaches a server without importing createServer(). */
import type { Tool } from "../tool/types.ts";
import type { Registry } from "./registry.ts";

/**
 * A server made by {@link createServer}. Its tool set is live: {@link addTool}, {@link removeTool} and
 * {@link enableTool} take effect for the next `tools/list` and `tools/call` of every connection, and
 * legacy sessions that were told `listChanged` get `notifications/tools/list_changed`.
 */
export interface McpServer {
  /** `serverInfo.name`. */
  readonly name: string;
  /** `serverInfo.version`. */
  readonly version: string;
  /** The tools served now (enabled ones), by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /**
   * Adds a tool, or replaces the tool of that name.
   * @throws ToolDefinitionError when `t` is not made by tool().
   */
  addTool(t: Tool): void;
  /** Removes a tool (enabled or not); false when there was none of that name. */
  removeTool(name: string): boolean;
  /**
   * Enables (default) or disables a tool: a disabled tool is neither listed nor callable (`Unknown tool`).
   * @throws ToolDefinitionError when the server has no tool of that name.
   */
  enableTool(name: string, enabled?: boolean): void;
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
