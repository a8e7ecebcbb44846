/** @module cacheResults(): the middleware that keeps results of read-only tools, in this process or, with `http.redis`, shared by every replica. */
import type { CallResult } from "../protocol/project.ts";
import { sharedStateOf, UNAVAILABLE, useShared, type SharedState } from "../state/shared.ts";
import type { RequestContext } from "../server/context.ts";
import type { Middleware, Next, McpRequest } from "../server/middleware-api.ts";

/**
 * A middleware that keeps the results of tools marked `annotations.readOnlyHint: true` for `ttlMs`,
 * keyed by tool name and arguments (the same for every caller: do not use it for tools whose answer
 * depends on who asks). isError results are not kept. In one process at most `maxEntries` (default 1000) results
 * are kept; the oldest go first. With `http.redis` the results are kept in Redis (JSON, with Redis's time to
 * live), so a result computed on one replica is served by every other; there at most `maxEntries` new results are
 * kept per `ttlMs` (so at most twice that at once), and while Redis fails every call runs the tool (docs/deploy.md).
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
    const shared = sharedStateOf((request.ctx as RequestContext).connection.registry);
    if (shared !== undefined) return sharedCache(shared, key, ttl, max, request, next);
    const now = performance.now();
    const hit = kept.get(key);
    if (hit !== undefined && now - hit.at < ttl) return hit.result;
    const result = (await next(request)) as CallResult;
    if (keepable(result, request)) {
      kept.delete(key);
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(key, { at: now, result });
    }
    return result;
  };
}

/** A result worth keeping: a complete, successful one. */
const keepable = (result: CallResult, request: McpRequest) =>
  result && !result.isError && !(request.ctx as RequestContext).done;

const WHO = "cacheResults runs every call";

/** The cache in the shared store: `cache:<sha256 of name and arguments>`, and a count of entries per ttl window. */
async function sharedCache(
  shared: SharedState,
  key: string,
  ttl: number,
  max: number,
  request: McpRequest,
  next: Next,
): Promise<CallResult> {
  const entry = `${shared.prefix}cache:${new Bun.CryptoHasher("sha256").update(key).digest("hex")}`;
  const text = await useShared(shared, WHO, (s) => s.get(entry));
  if (typeof text === "string") {
    try {
      return JSON.parse(text) as CallResult;
    } catch {}
  }
  const result = (await next(request)) as CallResult;
  if (text === UNAVAILABLE || !keepable(result, request)) return result;
  const json = JSON.stringify(result);
  if (json === undefined) return result;
  // Every entry lives ttl ms; a window of ttl ms takes max new ones, so at most 2 × max are alive at once.
  const window = `${shared.prefix}cache-count:${ttl}:${Math.floor(Date.now() / ttl)}`;
  await useShared(shared, WHO, async (s) => {
    if ((await s.incr(window, { ttlMs: 2 * ttl })) <= max) await s.set(entry, json, { ttlMs: ttl });
  });
  return result;
}
