/** @module Projection of resources, resource templates, prompts, read contents and prompt messages onto one protocol version (MCP server/resources and server/prompts of each version), with protocol's version features. */
import type { VersionFeatures } from "../protocol/versions.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { projectBlock } from "../protocol/project.ts";
import type { ResourceAnnotations } from "./common.ts";
import type { ResourceContents } from "./resource.ts";
import type { PromptArgument, PromptResult } from "./prompt.ts";
import type { ToolIcon } from "../shared/icon.ts";
import { LISTING_FIELDS, receivedExtras, withExtras } from "../protocol/received.ts";

/** The listing fields of a resource, template or prompt, version-neutral. */
export interface Listing {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: ResourceAnnotations;
  readonly icons?: readonly ToolIcon[];
  readonly meta?: Record<string, unknown>;
  /**
   * Set for an item another server listed (behind `mcpbin proxy`, `upstreams`, mount()): its fields that no
   * protocol version defines, sent to every client as they came (possibly none). Its annotations, icons and
   * prompt arguments are then sent with every key they came with, less what the version lacks.
   */
  readonly received?: Readonly<Record<string, unknown>>;
}

/**
 * A received wire object's listing fields as the projection reads them (`_meta` is `meta` there), with its fields
 * no protocol version defines as `received` (sent as they came).
 */
export function listingOf(w: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of LISTING_FIELDS) if (k !== "_meta" && w[k] !== undefined) out[k] = w[k];
  const meta = w._meta;
  if (meta !== undefined && typeof meta === "object" && meta !== null) out.meta = meta;
  out.received = receivedExtras(w, LISTING_FIELDS);
  return out;
}

const ICON_KEYS = ["src", "mimeType", "sizes", "theme"] as const;

function annotations(
  a: ResourceAnnotations | undefined,
  f: VersionFeatures,
  received: boolean,
): Record<string, unknown> | undefined {
  if (!a) return undefined;
  // A received item's annotations keep every key they came with (Annotations.lastModified: 2025-06-18+).
  if (received) return f.resourceLink ? (a as Record<string, unknown>) : withoutKey(a, "lastModified");
  const out: Record<string, unknown> = {};
  if (a.audience !== undefined) out.audience = a.audience;
  if (a.priority !== undefined) out.priority = a.priority;
  // Annotations.lastModified: 2025-06-18+.
  if (a.lastModified !== undefined && f.resourceLink) out.lastModified = a.lastModified;
  return Object.keys(out).length ? out : undefined;
}

/** name, title (2025-06-18+), description, mimeType, size, annotations, icons (2025-11-25+), _meta (2025-06-18+), after the key fields in `head`. */
function listing(
  head: Record<string, unknown>,
  l: Listing,
  f: VersionFeatures,
  withSize: boolean,
): Record<string, unknown> {
  const out = head;
  out.name = l.name;
  if (l.title !== undefined && f.structured) out.title = l.title;
  if (l.description !== undefined) out.description = l.description;
  if (l.mimeType !== undefined) out.mimeType = l.mimeType;
  if (withSize && l.size !== undefined) out.size = l.size;
  const a = annotations(l.annotations, f, l.received !== undefined);
  if (a) out.annotations = a;
  if (l.icons && f.icons) out.icons = icons(l, l.icons);
  if (l.meta !== undefined && (f.structured || f.ui)) out._meta = l.meta;
  return withExtras(out, l.received);
}

/** Icons with the keys the schema defines (a received item's with every key). */
function icons(l: Listing, list: readonly ToolIcon[]): Record<string, unknown>[] {
  if (l.received) return list as unknown as Record<string, unknown>[];
  return list.map((i) => Object.fromEntries(ICON_KEYS.filter((k) => i[k] !== undefined).map((k) => [k, i[k]])));
}

/** A copy of an object without one key (or the object itself when it lacks it); undefined when nothing is left. */
function withoutKey(o: object, key: string): Record<string, unknown> | undefined {
  if (!Object.hasOwn(o, key)) return o as Record<string, unknown>;
  const { [key]: _, ...rest } = o as Record<string, unknown>;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** A resource as `resources/list` sends it to one version (MCP Resource). */
export function projectResource(uri: string, l: Listing, f: VersionFeatures): Record<string, unknown> {
  return listing({ uri }, l, f, true);
}

/** A resource template as `resources/templates/list` sends it (MCP ResourceTemplate; no `size`). */
export function projectTemplate(uriTemplate: string, l: Listing, f: VersionFeatures): Record<string, unknown> {
  return listing({ uriTemplate }, l, f, false);
}

/** A prompt as `prompts/list` sends it (MCP Prompt); argument titles from 2025-06-18. */
export function projectPrompt(
  l: Listing,
  args: readonly PromptArgument[],
  f: VersionFeatures,
): Record<string, unknown> {
  const out: Record<string, unknown> = { name: l.name };
  if (l.title !== undefined && f.structured) out.title = l.title;
  if (l.description !== undefined) out.description = l.description;
  if (args.length) {
    out.arguments = args.map((a) => {
      // A received argument keeps every key it came with (PromptArgument.title: 2025-06-18+).
      if (l.received) return f.structured ? a : withoutKey(a, "title");
      const o: Record<string, unknown> = { name: a.name };
      if (a.title !== undefined && f.structured) o.title = a.title;
      if (a.description !== undefined) o.description = a.description;
      if (a.required !== undefined) o.required = a.required;
      return o;
    });
  }
  if (l.icons && f.icons) out.icons = icons(l, l.icons);
  if (l.meta !== undefined && (f.structured || f.ui)) out._meta = l.meta;
  return withExtras(out, l.received);
}

/** Read contents as one version carries them: item `_meta` from 2025-06-18. */
export function projectContents(contents: readonly ResourceContents[], f: VersionFeatures): Record<string, unknown>[] {
  return contents.map((c) => {
    const o: Record<string, unknown> = { uri: c.uri };
    if (c.mimeType !== undefined) o.mimeType = c.mimeType;
    if (c.text !== undefined) o.text = c.text;
    else o.blob = c.blob;
    if (c._meta !== undefined && (f.resourceLink || f.ui)) o._meta = c._meta;
    return o;
  });
}

/**
 * A `prompts/get` result as one version carries it. Below 2025-06-18 a `resource_link` becomes a
 * text block naming its URI; audio below 2025-03-26 has no faithful form.
 * @throws RpcError -32603 naming the version when a message holds audio it cannot carry.
 */
export function projectPromptResult(r: PromptResult, f: VersionFeatures): Record<string, unknown> {
  const messages = r.messages.map((m) => {
    const b = m.content;
    if (b.type === "audio" && !f.audio) {
      throw new RpcError(
        ErrorCode.InternalError,
        `This prompt returned audio content, which protocol version ${f.version} cannot carry`,
      );
    }
    if (b.type === "resource_link" && !f.resourceLink) {
      return {
        role: m.role,
        content: { type: "text", text: `Resource: ${b.uri}${b.name && b.name !== b.uri ? ` (${b.name})` : ""}` },
      };
    }
    return { role: m.role, content: projectBlock(b, f) };
  });
  const out: Record<string, unknown> = {};
  if (r.description !== undefined) out.description = r.description;
  out.messages = messages;
  return out;
}
