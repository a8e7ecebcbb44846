/** @module The package entry `mcpbin/session`: session() and what a program needs to define its tools, with nothing Bun-only (it runs in Bun and in Node ≥ 20). */
export { session, realCwd, type SessionOptions, type SessionHandle } from "./session.ts";
export { tool } from "../tools/define.ts";
export { toolResult } from "../shared/result.ts";
export { textContent, imageContent, resourceLink } from "../shared/content-blocks.ts";
export type { Tool, ToolContext, ToolDefinition } from "../tools/types.ts";
export { sessionDirPath, SessionDirError } from "./dir.ts";
