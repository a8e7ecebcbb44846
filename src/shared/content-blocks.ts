/** @module The content-block constructors (textContent, imageContent, audioContent, resourceLink, embeddedResource): each checks its input and brands the block toolResult() takes. */
import { CONTENT_BLOCK_BRAND } from "../runtime/contract.ts";
import { ContentError, plainObject, type Annotations, type ContentBlock, type ContentOptions } from "./result.ts";

function brand<T extends object>(block: T): T {
  Object.defineProperty(block, CONTENT_BLOCK_BRAND, { value: true });
  return block;
}

function withOpts<T extends Record<string, unknown>>(block: T, opts: ContentOptions | undefined, what: string): T {
  if (opts?.annotations !== undefined)
    (block as Record<string, unknown>).annotations = annotations(opts.annotations, what);
  if (opts?.meta !== undefined) (block as Record<string, unknown>)._meta = plainObject(opts.meta, `${what}: meta`);
  return brand(block);
}

function annotations(a: Annotations, what: string): Annotations {
  plainObject(a, `${what}: annotations`);
  const { audience, priority, lastModified } = a;
  if (
    audience !== undefined &&
    !(Array.isArray(audience) && audience.every((r) => r === "user" || r === "assistant"))
  ) {
    throw new ContentError(`${what}: annotations.audience must be an array of "user" and/or "assistant"`);
  }
  if (priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1)) {
    throw new ContentError(
      `${what}: annotations.priority must be a number from 0 to 1, got ${JSON.stringify(priority)}`,
    );
  }
  if (lastModified !== undefined && !(typeof lastModified === "string" && !Number.isNaN(Date.parse(lastModified)))) {
    throw new ContentError(
      `${what}: annotations.lastModified must be an ISO 8601 timestamp, got ${JSON.stringify(lastModified)}`,
    );
  }
  return a;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Reduces a `data:` URL to its base64 payload and checks the base64 alphabet and length. */
function base64(data: string, what: string): { data: string; mimeType?: string } {
  if (typeof data !== "string") throw new ContentError(`${what}: data must be a base64 string`);
  let payload = data;
  let mimeType: string | undefined;
  const m = /^data:([^;,]*)((?:;[^;,]*)*),/.exec(data);
  if (m) {
    if (!m[2]?.split(";").includes("base64")) throw new ContentError(`${what}: the data: URL is not base64-encoded`);
    payload = data.slice(m[0].length);
    mimeType = m[1] || undefined;
  }
  payload = payload.replace(/\s+/g, "");
  if (!BASE64.test(payload) || payload.length % 4 === 1) {
    throw new ContentError(`${what}: data is not base64 (only A-Z a-z 0-9 + / and = padding are allowed)`);
  }
  return { data: payload, mimeType };
}

function mime(mimeType: unknown, what: string): string {
  if (typeof mimeType !== "string" || !/^[^\s/]+\/[^\s]+$/.test(mimeType)) {
    throw new ContentError(`${what}: mimeType must be a MIME type like "image/png", got ${JSON.stringify(mimeType)}`);
  }
  return mimeType;
}

function uri(u: unknown, what: string): string {
  if (typeof u !== "string" || !URL.canParse(u))
    throw new ContentError(`${what}: uri must be an absolute URI, got ${JSON.stringify(u)}`);
  return u;
}

/**
 * A `text` content block (MCP TextContent, all versions).
 * @param text - sent as is (never JSON-encoded).
 * @param opts - `annotations` and `meta` (`_meta` on the wire, 2025-06-18+).
 * @returns the block.
 * @throws ContentError when `text` is not a string or an option is malformed.
 */
export function textContent(text: string, opts?: ContentOptions): ContentBlock {
  if (typeof text !== "string") throw new ContentError("textContent: text must be a string");
  return withOpts({ type: "text" as const, text }, opts, "textContent");
}

/**
 * An `image` content block (all versions). A `data:` URL is reduced to its plain base64 payload.
 * @param data - base64 or a base64 `data:` URL.
 * @param mimeType - e.g. "image/png"; may be omitted when `data` is a data URL that names one.
 * @param opts - `annotations` and `meta`.
 * @returns the block, `data` plain base64.
 * @throws ContentError on data outside the base64 alphabet or a missing MIME type.
 */
export function imageContent(data: string, mimeType?: string, opts?: ContentOptions): ContentBlock {
  const b = base64(data, "imageContent");
  return withOpts(
    { type: "image" as const, data: b.data, mimeType: mime(mimeType ?? b.mimeType, "imageContent") },
    opts,
    "imageContent",
  );
}

/**
 * An `audio` content block (MCP AudioContent, 2025-03-26+; older clients get an isError result naming the type).
 * @param data - base64 or a base64 `data:` URL.
 * @param mimeType - e.g. "audio/wav"; may be omitted when `data` is a data URL that names one.
 * @param opts - `annotations` and `meta`.
 * @returns the block, `data` plain base64.
 * @throws ContentError as {@link imageContent}.
 */
export function audioContent(data: string, mimeType?: string, opts?: ContentOptions): ContentBlock {
  const b = base64(data, "audioContent");
  return withOpts(
    { type: "audio" as const, data: b.data, mimeType: mime(mimeType ?? b.mimeType, "audioContent") },
    opts,
    "audioContent",
  );
}

/**
 * A `resource_link` block (2025-06-18+; older clients get an isError result naming the type).
 * @param link - `uri` and `name` required; `size` in bytes; `annotations`/`meta` as for every block.
 * @returns the block.
 * @throws ContentError on a URI that does not parse, an empty name, a bad MIME type or size.
 */
export function resourceLink(
  link: {
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
    /** Size in bytes. */
    size?: number;
  } & ContentOptions,
): ContentBlock {
  const { annotations, meta, ...rest } = link;
  uri(rest.uri, "resourceLink");
  if (typeof rest.name !== "string" || rest.name === "")
    throw new ContentError("resourceLink: name must be a non-empty string");
  if (rest.mimeType !== undefined) mime(rest.mimeType, "resourceLink");
  if (rest.size !== undefined && !(Number.isSafeInteger(rest.size) && rest.size >= 0))
    throw new ContentError(`resourceLink: size must be a whole number of bytes, got ${JSON.stringify(rest.size)}`);
  for (const k of ["title", "description"] as const) {
    if (rest[k] !== undefined && typeof rest[k] !== "string")
      throw new ContentError(`resourceLink: ${k} must be a string`);
  }
  const block: Record<string, unknown> = { type: "resource_link" };
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) block[k] = v;
  return withOpts(block, { annotations, meta }, "resourceLink") as ContentBlock;
}

/**
 * A `resource` block embedding a resource's contents (all versions).
 * @param r - `uri` plus exactly one of `text` or `blob` (base64 or a base64 `data:` URL, whose MIME
 *   type is used when `mimeType` is not given); `annotations`/`meta` for the block.
 * @returns the block (MCP EmbeddedResource).
 * @throws ContentError on a bad URI, both or neither of text/blob, or non-base64 blob.
 */
export function embeddedResource(
  r: {
    uri: string;
    text?: string;
    blob?: string;
    mimeType?: string;
  } & ContentOptions,
): ContentBlock {
  uri(r.uri, "embeddedResource");
  if ((r.text === undefined) === (r.blob === undefined))
    throw new ContentError("embeddedResource: give exactly one of text or blob");
  const resource: Record<string, unknown> = { uri: r.uri };
  if (r.mimeType !== undefined) resource.mimeType = mime(r.mimeType, "embeddedResource");
  if (r.text !== undefined) {
    if (typeof r.text !== "string") throw new ContentError("embeddedResource: text must be a string");
    resource.text = r.text;
  } else {
    const b = base64(r.blob as string, "embeddedResource");
    resource.blob = b.data;
    if (resource.mimeType === undefined && b.mimeType !== undefined)
      resource.mimeType = mime(b.mimeType, "embeddedResource");
  }
  return withOpts(
    { type: "resource" as const, resource },
    { annotations: r.annotations, meta: r.meta },
    "embeddedResource",
  ) as ContentBlock;
}
