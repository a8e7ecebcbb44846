/** @module rateLimit(): the tools capability's middleware that limits tools/call per caller, with token buckets in this process or, with `http.redis`, shared by every replica. */
import type { CallResult } from "../protocol/project.ts";
import { sharedStateOf, UNAVAILABLE, useShared } from "../state/shared.ts";
import type { RequestContext } from "../server/context.ts";
import type { McpRequest, Middleware, Next } from "../server/middleware-api.ts";

/** What {@link rateLimit} counts by. */
export type RateLimitKey = "client" | "session" | "token" | "subject";

/**
 * A middleware that limits `tools/call` per caller: at most `perMinute` calls in any minute (a token
 * bucket refilled continuously), keyed by the client's name and version, the legacy session, the
 * bearer token, or the subject an OAuth token was verified for (`http.auth`; issuer and `sub`, else the token).
 * Excess calls get an isError result with a retry hint; other methods are not counted.
 * In one process at most 10,000 callers are tracked (the oldest is forgotten first). With `http.redis` the
 * buckets are in Redis (one atomic script per call, on Redis's clock), so the limit holds across every replica;
 * while Redis fails, each replica counts on its own (docs/deploy.md).
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
  const local = localBuckets(per, rate);
  /** The answer once the wait (ms until a token; 0: taken) is known. */
  const decide = (wait: number, request: McpRequest, next: Next) => {
    if (wait <= 0) return next(request);
    const seconds = Math.ceil(wait / 1000);
    const r: CallResult = {
      content: [
        {
          type: "text",
          text: `Rate limit exceeded: at most ${per} tool calls per minute${by === "client" ? "" : ` per ${by}`}; retry in ${seconds} s`,
        },
      ],
      isError: true,
    };
    r._meta = { "io.mcpbin/retryAfterSeconds": seconds };
    return r;
  };
  return (request, next) => {
    if (request.method !== "tools/call") return next(request);
    const ctx = request.ctx as RequestContext;
    const key = keyOf(ctx, by);
    const shared = sharedStateOf(ctx.connection.registry);
    if (shared?.store.take === undefined) return decide(local(key), request, next);
    const bucket = `${shared.prefix}ratelimit:${by}:${per}:${new Bun.CryptoHasher("sha256").update(key).digest("hex")}`;
    return useShared(shared, "rateLimit counts in each replica", (s) => s.take!(bucket, per, rate)).then((wait) =>
      decide(wait === UNAVAILABLE ? local(key) : wait, request, next),
    );
  };
}

/** Token buckets in this process: `take(key)` answers 0 when a token was taken, else ms until one. */
function localBuckets(per: number, rate: number): (key: string) => number {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (key) => {
    const now = performance.now();
    let b = buckets.get(key);
    if (b === undefined) {
      if (buckets.size >= 10_000) buckets.delete(buckets.keys().next().value!);
      b = { tokens: per, at: now };
    } else buckets.delete(key); // re-inserted below: the map's order is least recently used first
    b.tokens = Math.min(per, b.tokens + (now - b.at) * rate);
    b.at = now;
    buckets.set(key, b);
    if (b.tokens < 1) return (1 - b.tokens) / rate;
    b.tokens -= 1;
    return 0;
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
