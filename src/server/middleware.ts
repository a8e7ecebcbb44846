/** @module Middleware around every request (the chain over the method table's invoke()) and the built-ins: rateLimit, maskErrors with ToolError, cacheResults. */
import { THROWN_KEY } from "../runtime/contract.ts";
import type { CallResult } from "../protocol/project.ts";
import type { Chain, MethodSpec, RequestContext } from "./context.ts";
import { checkParams, lookup } from "./method.ts";
import type { McpRequest, Middleware } from "./middleware-api.ts";

export type { McpRequest, Middleware, Next } from "./middleware-api.ts";

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

/** What {@link rateLimit} counts by. */
export type RateLimitKey = "client" | "session" | "token" | "subject";

/**
 * A middleware that limits `tools/call` per caller: at most `perMinute` calls in any minute (a token
 * bucket refilled continuously), keyed by the client's name and version, the legacy session, the
 * bearer token, or the subject an OAuth token was verified for (`http.auth`; issuer and `sub`, else the token). Excess calls get an isError result with a retry hint; other methods are not counted.
 * At most 10,000 callers are tracked (the oldest is forgotten first).
 * @param o - `perMinute` (> 0), `by` (default "client").
 * @throws TypeError for a `perMinute` that is not a positive number.
 */
export function rateLimit(o: { perMinute: number; by?: RateLimitKey }): Middleware {
  const per = o?.perMinute;
  if (typeof per !== "number" || !(per > 0) || !Number.isFinite(per))
    throw new TypeError(`rateLimit(): "perMinute" must be a positive number; got ${String(per)}`);
  const by = o.by ?? "client";
  if (by !== "client" && by !== "session" && by !== "token" && by !== "subject") {
    throw new TypeError(
      `rateLimit(): "by" must be "client", "session", "token" or "subject"; got ${JSON.stringify(by)}`,
    );
  }
  const rate = per / 60_000; // tokens per ms
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (request, next) => {
    if (request.method !== "tools/call") return next(request);
    const key = keyOf(request.ctx as RequestContext, by);
    const now = performance.now();
    let b = buckets.get(key);
    if (b === undefined) {
      if (buckets.size >= 10_000) buckets.delete(buckets.keys().next().value!);
      b = { tokens: per, at: now };
    } else buckets.delete(key); // re-inserted below: the map's order is least recently used first
    b.tokens = Math.min(per, b.tokens + (now - b.at) * rate);
    b.at = now;
    buckets.set(key, b);
    if (b.tokens < 1) {
      const wait = Math.ceil((1 - b.tokens) / rate / 1000);
      const r = errorResult(
        `Rate limit exceeded: at most ${per} tool calls per minute${by === "client" ? "" : ` per ${by}`}; retry in ${wait} s`,
      );
      r._meta = { "io.mcpbin/retryAfterSeconds": wait };
      return r;
    }
    b.tokens -= 1;
    return next(request);
  };
}

function keyOf(ctx: RequestContext, by: RateLimitKey): string {
  if (by === "session") return ctx.session?.id ?? (ctx.era === "legacy" ? "connection" : "stateless");
  if (by === "token") return ctx.auth?.token ?? "";
  // The verified identity (http.auth): one bucket per user of an issuer, whichever token or client it uses.
  if (by === "subject")
    return ctx.auth?.subject !== undefined
      ? `${ctx.auth.issuer ?? ""}\u0000${ctx.auth.subject}`
      : (ctx.auth?.token ?? "");
  const c = ctx.client;
  return `${String(c.name ?? "")}\u0000${String(c.version ?? "")}`;
}

/**
 * A middleware that keeps the results of tools marked `annotations.readOnlyHint: true` for `ttlMs`,
 * keyed by tool name and arguments (the same for every caller: do not use it for tools whose answer
 * depends on who asks). isError results are not kept. At most `maxEntries` (default 1000) results are
 * kept; the oldest go first.
 * @param o - `ttlMs` (> 0), `maxEntries`.
 * @throws TypeError for a bad `ttlMs` or `maxEntries`.
 */
export function cacheResults(o: { ttlMs: number; maxEntries?: number }): Middleware {
  const ttl = o?.ttlMs;
  if (typeof ttl !== "number" || !(ttl > 0))
    throw new TypeError(`cacheResults(): "ttlMs" must be a positive number of milliseconds; got ${String(ttl)}`);
  const max = o.maxEntries ?? 1000;
  if (!Number.isInteger(max) || max < 1)
    throw new TypeError(`cacheResults(): "maxEntries" must be an integer ≥ 1; got ${String(max)}`);
  const kept = new Map<string, { at: number; result: CallResult }>();
  return async (request, next) => {
    if (request.method !== "tools/call") return next(request);
    const tool = request.ctx.server.tools.get(request.params.name);
    if (tool?.definition.annotations?.readOnlyHint !== true) return next(request);
    let key: string;
    try {
      key = `${request.params.name}\u0000${JSON.stringify(request.params.arguments ?? {})}`;
    } catch {
      return next(request);
    }
    const now = performance.now();
    const hit = kept.get(key);
    if (hit !== undefined && now - hit.at < ttl) return hit.result;
    const result = (await next(request)) as CallResult;
    if (result && !result.isError && !(request.ctx as RequestContext).done) {
      kept.delete(key);
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(key, { at: now, result });
    }
    return result;
  };
}
