/** @module One page of a list method: stateless cursor, projection per version, cache hints (MCP basic/utilities/pagination, 2026-07-28 caching). */
import * as v from "valibot";
import { wireObject } from "../protocol/wire-object.ts";
import { listHash, page } from "../protocol/cursor.ts";
import { cacheFields } from "../protocol/project.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import type { CacheHints } from "../shared/cache.ts";
import { lazySchema } from "../runtime/once.ts";

/** The params of every list method: an optional cursor (checked by {@link listPage}). */
export const LIST_PARAMS = lazySchema(() =>
  v.nullish(wireObject({ cursor: v.optional(v.unknown()) }, "Invalid params: params must be an object")),
);

/** The checked params of a list method. */
export type ListParams = { cursor?: unknown } | null | undefined;

/**
 * One page of a list, projected, with `nextCursor` unless it is the last and the cache hints in the
 * 2026-07-28 era (one scope for every page of the list).
 * @param method - the list method (part of the list's identity).
 * @param key - the name or URI that identifies an item.
 * @param items - the whole list, in its deterministic order.
 * @param field - the result's array field (`resources`, `prompts`, …).
 * @param project - one item as the version lists it.
 * @param pageSize - items per page (undefined: all).
 * @throws RpcError -32602 for a cursor this server did not issue for this list.
 */
export function listPage<T>(
  method: string,
  items: readonly T[],
  key: (x: T) => string,
  field: string,
  project: (x: T) => Record<string, unknown>,
  p: ListParams,
  pageSize: number | undefined,
  cache: CacheHints,
  f: VersionFeatures,
): Record<string, unknown> {
  const hash = listHash(method, items.map(key));
  const got = page(items, p?.cursor, pageSize ?? Infinity, hash);
  const out: Record<string, unknown> = { [field]: got.items.map(project) };
  if (got.nextCursor !== undefined) out.nextCursor = got.nextCursor;
  return Object.assign(out, cacheFields(cache, f));
}
