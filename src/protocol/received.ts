/** @module Definitions received from another server and served again: the fields some protocol version defines, which each version's projection handles, and the rest, which pass through to every version as they came. */

/** Every field a Tool has in some version's schema (2024-11-05 … 2026-07-28): projected per version. */
export const TOOL_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "icons",
  "_meta",
  "execution",
]);

/** Every field a Resource, ResourceTemplate or Prompt has in some version's schema: projected per version. */
export const LISTING_FIELDS: ReadonlySet<string> = new Set([
  "name",
  "uri",
  "uriTemplate",
  "title",
  "description",
  "mimeType",
  "size",
  "annotations",
  "icons",
  "_meta",
  "arguments",
]);

/**
 * The fields of a received definition that no version's schema defines (a newer version's, an extension's,
 * a vendor's): each client gets them as they came, since no version says it lacks them.
 * @param w - the definition as received (parsed JSON).
 * @param known - the fields the projection handles ({@link TOOL_FIELDS} or {@link LISTING_FIELDS}).
 * @returns the other fields, possibly none (own data properties only: a `__proto__` field stays a field).
 */
export function receivedExtras(
  w: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(w)) if (!known.has(k) && w[k] !== undefined) defineField(out, k, w[k]);
  return out;
}

/**
 * Adds the received extras to a projected definition, after its own fields (which win), each as an own data
 * property (`__proto__` included: it is a field, never a prototype).
 * @param out - the projected definition (changed).
 * @param extras - from {@link receivedExtras}.
 * @returns `out`.
 */
export function withExtras(
  out: Record<string, unknown>,
  extras: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  if (extras) for (const k of Object.keys(extras)) if (!Object.hasOwn(out, k)) defineField(out, k, extras[k]);
  return out;
}

/** Sets a plain, enumerable own field, whatever its name (assignment to `__proto__` would set the prototype). */
function defineField(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}
