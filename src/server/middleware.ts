/** @module Middleware around every request: the chain over the method table's invoke() (the built-ins rateLimit, maskErrors and cacheResults are the tools capability's, in src/tools/). */
import type { RequestContext } from "./context.ts";
import type { Chain, MethodSpec } from "./method-spec.ts";
import { checkParams, lookup } from "./method.ts";
import type { McpRequest, Middleware } from "./middleware-api.ts";

export type { McpRequest, Middleware, Next } from "./middleware-api.ts";

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

declare module "../shared/server-options.ts" {
  /** The key of the server options that holds the middleware (src/shared/server-options.ts). */
  interface ServerOptions {
    /**
     * Middleware around every request, outermost first (src/tools/: rateLimit, maskErrors,
     * cacheResults, or your own `(request, next) => result`). None: the pipeline calls the handlers directly.
     */
    readonly middleware?: readonly Middleware[];
  }
}
