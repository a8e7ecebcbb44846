/** @module Stateless pagination cursors: position plus a hash of the list, so any process of the same build accepts them (MCP basic/utilities/pagination). */
import { ErrorCode, RpcError } from "./jsonrpc.ts";

/**
 * The identity of one list: a hash of its method and its items' keys (names or URIs, in order). Two
 * processes serving the same list compute the same value.
 * @param method - e.g. `resources/list`.
 * @param keys - the items' keys in list order.
 */
export function listHash(method: string, keys: readonly string[]): string {
  const text = `${method}\u0000${keys.join("\u0000")}`;
  // Node (a session's bundle, src/sessions) has no Bun.hash: a 32-bit FNV-1a there; each process only reads its own cursors.
  return typeof Bun === "undefined" ? fnv1a(text) : Bun.hash(text).toString(36);
}

/** 32-bit FNV-1a of a string's UTF-16 units, base 36. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** The cursor of the page starting at `offset` of the list with this hash. */
export function encodeCursor(offset: number, hash: string): string {
  return Buffer.from(`${offset}.${hash}`).toString("base64url");
}

/**
 * One page of a list.
 * @param items - the whole list, in its deterministic order.
 * @param cursor - `params.cursor` as sent (undefined, null and "" mean the first page).
 * @param pageSize - items per page (Infinity: one page).
 * @param hash - {@link listHash} of the list.
 * @returns the page and the cursor of the next one (none on the last page).
 * @throws RpcError -32602 for a cursor that was never issued for this list (garbage, another list's, past the end).
 */
export function page<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
  hash: string,
): { items: readonly T[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined && cursor !== null && cursor !== "") {
    if (typeof cursor !== "string")
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "cursor" must be a string');
    const text = Buffer.from(cursor, "base64url").toString();
    const m = /^(\d{1,15})\.([0-9a-z]+)$/.exec(text);
    if (!m || encodeCursor(Number(m[1]), m[2]!) !== cursor)
      throw new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown cursor (not one this server issued)");
    if (m[2] !== hash)
      throw new RpcError(
        ErrorCode.InvalidParams,
        "Invalid params: the cursor belongs to another list (or the list changed); start again without a cursor",
      );
    offset = Number(m[1]);
    if (offset <= 0 || offset >= items.length)
      throw new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown cursor (past the end of the list)");
  }
  if (offset === 0 && items.length <= pageSize) return { items };
  const end = Math.min(items.length, offset + pageSize);
  const out: { items: readonly T[]; nextCursor?: string } = { items: items.slice(offset, end) };
  if (end < items.length) out.nextCursor = encodeCursor(end, hash);
  return out;
}
