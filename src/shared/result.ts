/** @module toolResult(), the shapes of results and content blocks, and receivedResult(): the explicit opt-in to protocol-native results (the block constructors: src/shared/content-blocks.ts). */
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

/** Checks that `x` is a plain object (not null, not an array). @throws ContentError naming `what`. */
export function plainObject<T>(x: T, what: string): T {
  if (typeof x !== "object" || x === null || Array.isArray(x)) throw new ContentError(`${what} must be an object`);
  return x;
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
