/** @module maskErrors() and ToolError: the tools capability's middleware that hides what tools throw, and the error whose message it keeps. */
import { THROWN_KEY } from "../runtime/contract.ts";
import type { CallResult } from "../protocol/project.ts";
import type { Middleware } from "../server/middleware-api.ts";

/** An isError tools/call result with one text block (MCP server/tools "Error Handling"). */
const errorResult = (text: string): CallResult => ({ content: [{ type: "text", text }], isError: true });

/** Where a tool's isError result from a thrown value keeps that value (for {@link maskErrors}). */
export const THROWN = THROWN_KEY;

/**
 * An error whose message is meant for the model: {@link maskErrors} passes it through, where any other
 * error a tool throws reaches the model as "internal error".
 */
export class ToolError extends Error {
  readonly code = "TOOL_ERROR";
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

/**
 * A middleware that hides what tools throw: an isError result made from a thrown value that is not a
 * {@link ToolError} says `Tool <name> failed: internal error` (the stack still goes to stderr). isError
 * results a tool returns itself, argument errors, and ToolError messages are kept.
 */
export function maskErrors(): Middleware {
  return async (request, next) => {
    const result = await next(request);
    if (request.method !== "tools/call" || result === null || typeof result !== "object") return result;
    const thrown = (result as Record<symbol, unknown>)[THROWN];
    if (thrown === undefined || thrown instanceof ToolError) return result;
    return errorResult(`Tool ${request.params.name} failed: internal error`);
  };
}
