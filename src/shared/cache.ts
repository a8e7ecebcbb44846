/** @module The 2026-07-28 cache hints of a result (MCP 2026-07-28 server/utilities/caching), which the core's list pages and the content capability share: a leaf. */

/**
 * 2026-07-28 cache hints (server/utilities/caching): how long a client may reuse a result, in whole
 * milliseconds (0: stale at once), and whether a shared cache may serve it to other users.
 */
export interface CacheHints {
  readonly ttlMs: number;
  readonly scope: "public" | "private";
}
