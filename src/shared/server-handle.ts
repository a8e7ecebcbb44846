/** @module The server as a request sees it (`ctx.server`): its identity here; each capability adds what it serves (src/tools/types.ts: the live tool set): a shared shape, a leaf. */

/**
 * The server a request is served by, as `ctx.server` (createServer()'s McpServer extends it). The core knows its
 * identity; capabilities add their members by augmenting this interface (the tools capability: `tools`,
 * `addTool`, `removeTool`, `enableTool`).
 */
export interface ServerHandle {
  /** `serverInfo.name`. */
  readonly name: string;
  /** `serverInfo.version`. */
  readonly version: string;
}
