/** @module Projection of results onto the protocol version in force: completion and cache hints (2026-07-28 basic "ResultType", server/utilities/caching), content blocks and `tools/call` results (MCP server/tools of each version), capabilities. */
import type { ContentBlock } from "../shared/result.ts";
import type { VersionFeatures } from "./versions.ts";
import { resultLine, type RequestId } from "./jsonrpc.ts";

/** Cache hints sent on cacheable 2026-07-28 results: `server/discover`, `tools/list` (server/utilities/caching). */
export const CACHE_HINTS = { ttlMs: 300_000, cacheScope: "public" } as const;
const CACHE_HINTS_JSON = JSON.stringify(CACHE_HINTS).slice(1, -1);
/** The hints of a list that differs between clients (e.g. app-only tools, MCP Apps): not for shared caches. */
const PRIVATE_HINTS_JSON = JSON.stringify({ ...CACHE_HINTS, cacheScope: "private" }).slice(1, -1);

/**
 * A result already projected onto the version in force and serialized, complete with what
 * {@link completeResult} would add (e.g. the `tools/list` result a registry keeps per version).
 */
export class ProjectedJson {
  /** @param json - the result object as JSON text. */
  constructor(readonly json: string) {}
}

/**
 * Completes a version-neutral result for the version in force (MCP 2026-07-28 basic "ResultType" and server/utilities/caching; earlier versions' schemas): legacy versions take
 * it as it is; 2026-07-28 puts `resultType: "complete"` first, the cache hints when the method is
 * cacheable, and the server's `_meta` last (the result's own `_meta` keys win).
 * @param result - the handler's result (not modified).
 * @param f - the version features in force.
 * @param serverMeta - the `_meta` every 2026-07-28 result carries (serverInfo).
 * @param cacheable - whether the method's results carry cache hints.
 * @returns the object to serialize.
 */
export function completeResult(
  result: Record<string, unknown>,
  f: VersionFeatures,
  serverMeta: Record<string, unknown>,
  cacheable: boolean,
): Record<string, unknown> {
  if (!f.modern) return result;
  const own = result._meta as Record<string, unknown> | undefined;
  const out: Record<string, unknown> = { resultType: "complete", ...result };
  // A result's own hints win (a list that differs between callers is `cacheScope: "private"`).
  if (cacheable) Object.assign(out, CACHE_HINTS, pickHints(result));
  delete out._meta;
  out._meta = own ? { ...serverMeta, ...own } : serverMeta;
  return out;
}

function pickHints(r: Record<string, unknown>): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  if (r.ttlMs !== undefined) own.ttlMs = r.ttlMs;
  if (r.cacheScope !== undefined) own.cacheScope = r.cacheScope;
  return own;
}

/**
 * {@link completeResult} for a result given as JSON text of an object without `_meta`.
 * @param json - the result object as JSON text, e.g. `{"tools":[…]}`.
 * @param f - the version features in force.
 * @param serverMetaJson - the server's `_meta` serialized.
 * @param cacheable - whether cache hints go with it; `"private"`: with `cacheScope: "private"`.
 * @returns the completed result as JSON text.
 */
export function completeResultJson(
  json: string,
  f: VersionFeatures,
  serverMetaJson: string,
  cacheable: boolean | "private",
): string {
  if (!f.modern) return json;
  const inner = json.slice(1, -1);
  const hints = cacheable === "private" ? `${PRIVATE_HINTS_JSON},` : cacheable ? `${CACHE_HINTS_JSON},` : "";
  return `{"resultType":"complete",${inner === "" ? "" : `${inner},`}${hints}"_meta":${serverMetaJson}}`;
}

/** A `tools/call` result in wire shape, before projection. */
export interface CallResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Content `Annotations` keys, as each schema.json defines them. */
const BLOCK_ANNOTATION_KEYS_OLD = ["audience", "priority"] as const;
const BLOCK_ANNOTATION_KEYS = ["audience", "priority", "lastModified"] as const;

/**
 * The defined keys of `o` that are set, or undefined when none is: authors' extra keys never reach the wire.
 * @param o - an author's object (annotations, an icon).
 * @param keys - the keys the version's schema defines.
 */
export function pick(o: object, keys: readonly string[]): Record<string, unknown> | undefined {
  const src = o as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (src[k] !== undefined) out[k] = src[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

const BLOCK_KEYS: Record<string, readonly string[]> = {
  text: ["type", "text"],
  image: ["type", "data", "mimeType"],
  audio: ["type", "data", "mimeType"],
  resource: ["type", "resource"],
  resource_link: ["type", "uri", "name", "title", "description", "mimeType", "size"],
};

/** One content block as a version carries it (unknown fields dropped; `_meta` and `lastModified` from 2025-06-18). */
export function projectBlock(b: ContentBlock, f: VersionFeatures): Record<string, unknown> {
  // The common case, a plain text block, every version carries as is.
  if (b.type === "text" && b.annotations === undefined && b._meta === undefined) return { type: "text", text: b.text };
  const src = b as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of BLOCK_KEYS[b.type] ?? []) if (src[k] !== undefined) out[k] = src[k];
  if (b.type === "resource" && !f.resourceLink && b.resource._meta !== undefined) {
    const { _meta: _, ...resource } = b.resource;
    out.resource = resource;
  }
  if (b.annotations && f.blockAnnotations) {
    const a = pick(b.annotations, f.resourceLink ? BLOCK_ANNOTATION_KEYS : BLOCK_ANNOTATION_KEYS_OLD);
    if (a) out.annotations = a;
  }
  if (b._meta !== undefined && f.resourceLink) out._meta = b._meta;
  return out;
}

/**
 * A `tools/call` result as sent to one version: unknown block fields dropped, `structuredContent`
 * dropped where the version cannot carry it (the text copy stays). Content the version cannot
 * carry (audio before 2025-03-26, resource_link before 2025-06-18) turns the whole result into an
 * `isError` result naming the unsupported types: never partial content.
 */
export function projectResult(r: CallResult, f: VersionFeatures): Record<string, unknown> {
  let unsupported: Set<string> | undefined;
  for (const b of r.content) {
    if ((b.type === "audio" && !f.audio) || (b.type === "resource_link" && !f.resourceLink))
      (unsupported ??= new Set()).add(b.type);
  }
  if (unsupported) {
    return {
      content: [
        {
          type: "text",
          text: `This tool returned ${[...unsupported].join(" and ")} content, which protocol version ${f.version} cannot carry.`,
        },
      ],
      isError: true,
    };
  }
  const out: Record<string, unknown> = { content: r.content.map((b) => projectBlock(b, f)) };
  if (r.structuredContent !== undefined && (f.structured || f.ui) && !r.isError) {
    const sc = r.structuredContent;
    if (f.structuredAnyRoot || (typeof sc === "object" && sc !== null && !Array.isArray(sc)))
      out.structuredContent = sc;
  }
  if (r.isError) out.isError = true;
  if (r._meta !== undefined) out._meta = r._meta;
  return out;
}

/**
 * The response line of a `tools/call` result for the version in force: {@link projectResult}, and in
 * the 2026-07-28 era `resultType` and the server's `_meta` after the content (the result's own
 * `_meta` keys win). The common one-text-block result is serialized directly ({@link plainTextLine}).
 * @param id - the request id.
 * @param r - the shaped, version-neutral result.
 * @param f - the version features in force.
 * @param serverMeta - the `_meta` every 2026-07-28 result carries.
 * @param serverMetaJson - the same, serialized.
 * @returns the response line.
 */
export function callResultLine(
  id: RequestId,
  r: CallResult,
  f: VersionFeatures,
  serverMeta: Record<string, unknown>,
  serverMetaJson: string,
): string {
  return plainTextLine(id, r, f, serverMetaJson) ?? resultLine(id, projectCallResult(r, f, serverMeta));
}

/**
 * A `tools/call` result as the version in force carries it, complete: {@link projectResult}, and in
 * the 2026-07-28 era `resultType` and the server's `_meta` after the content (the result's own
 * `_meta` keys win). {@link callResultLine} serializes it (or takes the direct path for plain text).
 * @param r - the shaped, version-neutral result.
 * @param f - the version features in force.
 * @param serverMeta - the `_meta` every 2026-07-28 result carries.
 * @returns the result object.
 */
export function projectCallResult(
  r: CallResult,
  f: VersionFeatures,
  serverMeta: Record<string, unknown>,
): Record<string, unknown> {
  const result = projectResult(r, f);
  if (f.modern) {
    result.resultType = "complete";
    result._meta = result._meta ? { ...serverMeta, ...(result._meta as object) } : serverMeta;
  }
  return result;
}

/**
 * The common result, one plain text block and nothing else: serialized directly, the same bytes as
 * stringifying the projected result (`resultLine(id, projectResult(r, f))`; in the 2026-07-28 era
 * with `resultType` and the server's `_meta` after `content`, as {@link callResultLine} adds them), without
 * building the projected object (MCP server/tools CallToolResult).
 * @param id - the request id.
 * @param r - the shaped result.
 * @param f - the version features in force.
 * @param modernMetaJson - the serialized `_meta` every 2026-07-28 result carries (Registry.modernMetaJson).
 * @returns the response line, or undefined when the result is not of that shape.
 */
export function plainTextLine(
  id: RequestId,
  r: CallResult,
  f: VersionFeatures,
  modernMetaJson: string,
): string | undefined {
  if (r.content.length !== 1 || r.structuredContent !== undefined || r.isError || r._meta !== undefined)
    return undefined;
  const b = r.content[0]!;
  if (b.type !== "text" || b.annotations !== undefined || b._meta !== undefined || typeof b.text !== "string")
    return undefined;
  const content = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":${JSON.stringify(b.text)}}]`;
  return f.modern ? `${content},"resultType":"complete","_meta":${modernMetaJson}}}` : `${content}}}`;
}

/**
 * The 2026-07-28 cache hints of a result (server/utilities/caching), or nothing for a legacy version
 * (whose schemas have no such keys).
 * @param hints - ttl in whole milliseconds and scope.
 */
export function cacheFields(
  hints: { readonly ttlMs: number; readonly scope: "public" | "private" },
  f: VersionFeatures,
): Record<string, unknown> {
  return f.modern ? { ttlMs: hints.ttlMs, cacheScope: hints.scope } : {};
}

/**
 * Server capabilities as one version's schema defines them: `completions` exists from 2025-03-26
 * (the 2024-11-05 server answers `completion/complete` without advertising it).
 */
export function projectCapabilities(
  caps: Readonly<Record<string, Record<string, unknown>>>,
  f: VersionFeatures,
): Readonly<Record<string, Record<string, unknown>>> {
  if (f.version >= "2025-03-26" || caps.completions === undefined) return caps;
  const { completions: _, ...rest } = caps;
  return rest;
}
