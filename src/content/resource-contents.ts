/** @module A reader's value as resource contents: text or base64 bytes, each item's uri and mimeType, and the checks that name the resource. */
import { ContentDefinitionError } from "./common.ts";
import type { ContentItem, ResourceContents } from "./resource-types.ts";

/** Base64 of bytes. */
export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Bytes as text when they are UTF-8 without NUL (byte for byte on the way back), else undefined. */
export function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
/**
 * A reader's value as contents items.
 * @param uri - the URI read (the default of each item's `uri`).
 * @param mimeType - the definition's mimeType (the default of each item's).
 * @throws ContentDefinitionError naming the resource when the value is not readable content.
 */
export function toContents(
  what: string,
  value: unknown,
  uri: string,
  mimeType: string | undefined,
): ResourceContents[] {
  const one = (x: unknown): ResourceContents => {
    if (typeof x === "string") return withMime({ uri, text: x }, mimeType);
    if (x instanceof Uint8Array) return withMime({ uri, blob: base64(x) }, mimeType);
    if (typeof x === "object" && x !== null) {
      const it = x as ContentItem;
      const out: ResourceContents = { uri: typeof it.uri === "string" ? it.uri : uri };
      const m = typeof it.mimeType === "string" ? it.mimeType : mimeType;
      if (m !== undefined) out.mimeType = m;
      if (typeof it.text === "string" && it.blob === undefined) out.text = it.text;
      else if (it.blob instanceof Uint8Array && it.text === undefined) out.blob = base64(it.blob);
      else if (typeof it.blob === "string" && it.text === undefined) out.blob = it.blob;
      else
        throw new ContentDefinitionError(
          `${what}: each content item needs exactly one of "text" (a string) or "blob" (a Uint8Array or base64 string)`,
        );
      if (it.meta !== undefined) out._meta = it.meta;
      return out;
    }
    throw new ContentDefinitionError(
      `${what}: a reader must return a string, a Uint8Array, or { text | blob, mimeType? } items; got ${x === null ? "null" : typeof x}`,
    );
  };
  if (Array.isArray(value)) {
    if (value.length === 0)
      throw new ContentDefinitionError(
        `${what}: the reader returned no contents (an empty array); a resource that does not exist should throw instead`,
      );
    return value.map(one);
  }
  return [one(value)];
}

/** The item with the mimeType set, when there is one. */
export function withMime(c: ResourceContents, mimeType: string | undefined): ResourceContents {
  if (mimeType !== undefined) c.mimeType = mimeType;
  return c;
}

/** A file's mime type from its extension (without parameters), or undefined for an unknown one. */
export function mimeOf(path: string): string | undefined {
  const t = Bun.file(path).type.split(";")[0]!;
  return t === "application/octet-stream" ? undefined : t;
}
/** The size in bytes of a text: its length when it is short ASCII, else its UTF-8 length. */
export function byteSize(text: string): number {
  return text.length < 128 && /^[\x00-\x7f]*$/.test(text) ? text.length : Buffer.byteLength(text);
}
