/** @module The `_meta` keys the client sends and reads (MCP 2026-07-28 basic, per-request metadata). */

/** Reserved `_meta` keys of 2026-07-28 requests and results. */
export const META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;
