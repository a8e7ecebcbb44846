/** @module The 2026-07-28 cache hints of a result (MCP 2026-07-28 server/utilities/caching), and those of lists, which the core's list pages and the tools, content and skills capabilities share: a leaf. */

/**
 * 2026-07-28 cache hints (server/utilities/caching): how long a client may reuse a result, in whole
 * milliseconds (0: stale at once), and whether a shared cache may serve it to other users.
 */
export interface CacheHints {
  readonly ttlMs: number;
  readonly scope: "public" | "private";
}

/** Cache hints of a static list (2026-07-28): nothing in it can change while the process runs. */
export const STATIC_LIST_CACHE: CacheHints = { ttlMs: 300_000, scope: "public" };
/** The hints of a list that differs between callers (their scopes; tools/list also with app-only tools): kept, but by that caller only. */
export const PRIVATE_LIST_CACHE: CacheHints = { ttlMs: 300_000, scope: "private" };
/** Cache hints of a list a template's `list()` computes, and of reads by default. */
export const PRIVATE_NO_CACHE: CacheHints = { ttlMs: 0, scope: "private" };
