/** @module Middleware around every request (the chain over the method table's invoke()) and the built-in maskErrors with ToolError; rateLimit has a file of its own, and cacheResults is the tools capability's (src/tools/cache-results.ts). */
import { THROWN_KEY } from "../runtime/contract.ts";
import type { CallResult } from "../protocol/project.ts";
import type { RequestContext } from "./context.ts";
import type { Chain, MethodSpec } from "./method-spec.ts";
import { checkParams, lookup } from "./method.ts";
import type { McpRequest, Middleware } from "./middleware-api.ts";

export type { McpRequest, Middleware, Next } from "./middleware-api.ts";
export { rateLimit, type RateLimitKey } from "./rate-limit.ts";

/** An isError tools/call result with one text block (MCP server/tools "Error Handling"). */
const errorResult = (text: string): CallResult => ({ content: [{ type: "text", text }], isError: true });

/**
 * Composes middleware around the method table. The look-up (-32601) and the params check (-32602) run
 * first, so every middleware sees a request the server has a method for, with checked params; changed
 * params are checked again before the handler. `next` runs synchronously up to the handler (a handler
 * that answers at once, like `initialize`, has done its work when `next` returns), and returns a promise.
 * @param list - the middleware, outermost first.
 * @returns the chain.
 * @throws TypeError (at start) when an entry is not a function.
 */
export function compose(list: readonly Middleware[]): Chain {
  list.forEach((m, i) => {
    if (typeof m !== "function")
      throw new TypeError(
        `createServer(): "middleware" entry ${i} must be a function (request, next) => result; got ${typeof m}`,
      );
  });
  return (method, params, ctx) => {
    const spec = lookup(ctx.connection.table, method, ctx);
    ctx.spec = spec;
    const checked = spec.params === undefined ? params : checkParams(spec, params);
    ctx.params = checked;
    const run = (i: number, req: McpRequest): Promise<unknown> => {
      try {
        if (i === list.length) return Promise.resolve(handle(spec, req, checked));
        return Promise.resolve(list[i]!(req, (next) => run(i + 1, next ?? req)));
      } catch (e) {
        return Promise.reject(e);
      }
    };
    return run(0, { method, params: checked, ctx });
  };
}

function handle(spec: MethodSpec, req: McpRequest, checked: unknown): unknown {
  if (req.method !== spec.name)
    throw new TypeError(
      `middleware: next() got method ${req.method} for a ${spec.name} request; a middleware may change params, not the method`,
    );
  let p = req.params;
  if (p !== checked) {
    p = spec.params === undefined ? p : checkParams(spec, p);
    // The pipeline's McpRequest carries its own RequestContext (a middleware sees it as a MiddlewareContext).
    (req.ctx as RequestContext).params = p;
  }
  return spec.handle(p, req.ctx as RequestContext);
}

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

declare module "../shared/server-options.ts" {
  /** The key of the server options that holds the middleware (src/shared/server-options.ts). */
  interface ServerOptions {
    /**
     * Middleware around every request, outermost first (src/server/middleware.ts: rateLimit, maskErrors,
     * cacheResults, or your own `(request, next) => result`). None: the pipeline calls the handlers directly.
     */
    readonly middleware?: readonly Middleware[];
  }
}
