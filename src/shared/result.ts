/** @module toolResult() and the content-block constructors: the explicit opt-in to protocol-native results. */
import { CONTENT_BLOCK_BRAND, TOOL_RESULT_BRAND } from "../runtime/contract.ts";

/** Content annotations (MCP server/tools "Annotations"); `lastModified` is sent from 2025-06-18 on. */
export interface Annotations {
  readonly audience?: readonly ("user" | "assistant")[];
  /** 0 (least important) to 1 (most important). */
  readonly priority?: number;
  /** ISO 8601 timestamp. */
  readonly lastModified?: string;
}

/** Options every content constructor takes. */
export interface ContentOptions {
  readonly annotations?: Annotations;
  /** Sent as the block's `_meta` (2025-06-18+). */
  readonly meta?: Record<string, unknown>;
}

/** A content block in its wire shape (MCP ContentBlock). */
export type ContentBlock =
  | { type: "text"; text: string; annotations?: Annotations; _meta?: Record<string, unknown> }
  | {
      type: "image" | "audio";
      data: string;
      mimeType: string;
      annotations?: Annotations;
      _meta?: Record<string, unknown>;
    }
  | {
      type: "resource_link";
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
      annotations?: Annotations;
      _meta?: Record<string, unknown>;
    }
  | {
      type: "resource";
      resource: { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> };
      annotations?: Annotations;
      _meta?: Record<string, unknown>;
    };

/** The brands of src/runtime/contract.ts: a block or result made by another copy of mcpbin is taken too. */
const BLOCK = CONTENT_BLOCK_BRAND;
const RESULT = TOOL_RESULT_BRAND;

/** A result built by {@link toolResult}; only these are taken as protocol-native results. */
export interface ToolResult {
  readonly [RESULT]: true;
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly meta?: Record<string, unknown>;
}

/** Raised by a constructor when its input is wrong; the message says what to change. */
export class ContentError extends Error {
  readonly code = "CONTENT_INVALID";
  constructor(message: string) {
    super(message);
    this.name = "ContentError";
  }
}

function brand<T extends object>(block: T): T {
  Object.defineProperty(block, BLOCK, { value: true });
  return block;
}

function withOpts<T extends Record<string, unknown>>(block: T, opts: ContentOptions | undefined, what: string): T {
  if (opts?.annotations !== undefined)
    (block as Record<string, unknown>).annotations = annotations(opts.annotations, what);
  if (opts?.meta !== undefined) (block as Record<string, unknown>)._meta = plainObject(opts.meta, `${what}: meta`);
  return brand(block);
}

function plainObject<T>(x: T, what: string): T {
  if (typeof x !== "object" || x === null || Array.isArray(x)) throw new ContentError(`${what} must be an object`);
  return x;
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

/**
 * The explicit protocol-native result (MCP server/tools CallToolResult).
 * @param r.content - blocks from the constructors only.
 * @param r.structuredContent - checked against the tool's output schema; a JSON text copy is added
 *   when `content` is not given.
 * @param r.isError - a tool-level failure the model can read; `structuredContent` is then omitted.
 * @param r.meta - sent as the result's `_meta`.
 * @returns the branded result `run` returns; only such values are taken as protocol-native.
 * @throws ContentError when a content item was not made by a constructor, or a field has the wrong type.
 */
export function toolResult(r: {
  content?: readonly ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  meta?: Record<string, unknown>;
}): ToolResult {
  if (typeof r !== "object" || r === null)
    throw new ContentError("toolResult: give an object { content?, structuredContent?, isError?, meta? }");
  if (r.isError !== undefined && typeof r.isError !== "boolean")
    throw new ContentError("toolResult: isError must be a boolean");
  if (r.meta !== undefined) plainObject(r.meta, "toolResult: meta");
  if (r.content !== undefined) {
    if (!Array.isArray(r.content)) throw new ContentError("toolResult: content must be an array of content blocks");
    for (const [i, b] of r.content.entries()) {
      if (typeof b !== "object" || b === null || !(BLOCK in b)) {
        throw new ContentError(
          `toolResult: content[${i}] was not made by textContent/imageContent/audioContent/resourceLink/embeddedResource`,
        );
      }
    }
  }
  return { [RESULT]: true, ...r } as ToolResult;
}

/** True for values made by {@link toolResult}. */
export function isToolResult(x: unknown): x is ToolResult {
  return typeof x === "object" && x !== null && RESULT in x;
}

/**
 * A CallToolResult received from another MCP server, returned by a tool as it came (src/client's
 * passthrough tools): the content blocks are taken as they are, unchecked, and the result is projected
 * onto the client's protocol version like any other (MCP server/tools CallToolResult).
 * @param r - `content`, `structuredContent`, `isError` and `_meta` as the other server sent them.
 * @returns the branded result.
 */
export function receivedResult(r: {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  _meta?: unknown;
}): ToolResult {
  const content = Array.isArray(r.content)
    ? (r.content as object[]).filter((b) => typeof b === "object" && b !== null)
    : [];
  for (const b of content) if (!(BLOCK in b)) Object.defineProperty(b, BLOCK, { value: true });
  const out: { -readonly [K in keyof ToolResult]: ToolResult[K] } = {
    [RESULT]: true,
    content: content as ContentBlock[],
  };
  if (r.structuredContent !== undefined) out.structuredContent = r.structuredContent;
  if (r.isError === true) out.isError = true;
  if (typeof r._meta === "object" && r._meta !== null && !Array.isArray(r._meta))
    out.meta = r._meta as Record<string, unknown>;
  return out;
}
