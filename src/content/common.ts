/** @module What resources, templates and prompts share: the definition error, display fields, cache hints, the read context and the change hub. */
import { logLine } from "../runtime/log-name.ts";
import { isScopes } from "../shared/auth.ts";
import type { CacheHints } from "../shared/cache.ts";
import type { Asker } from "../ask/types.ts";
import { NO_CLIENT } from "../ask/none.ts";
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { ToolIcon } from "../shared/icon.ts";

/** An author's mistake in a resource, template or prompt, found at definition; the message names it and what to change. */
export class ContentDefinitionError extends Error {
  readonly code = "CONTENT_DEFINITION";
  constructor(message: string) {
    super(message);
    this.name = "ContentDefinitionError";
  }
}

/** Resource annotations (MCP Annotations): `lastModified` (ISO 8601) is sent from 2025-06-18 on. */
export interface ResourceAnnotations {
  readonly audience?: readonly ("user" | "assistant")[];
  /** 0 (least important) to 1 (most important). */
  readonly priority?: number;
  readonly lastModified?: string;
}

export type { CacheHints };

/** Where a definition came from (set by the loader; never sent to clients). */
export interface ContentSource {
  readonly dir: string;
  readonly file: string;
}

/** What a resource reader, template reader, prompt or completer receives. */
export interface ContentContext extends Asker {
  /** Aborted when the client cancels the request or the server shuts down. */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the request being served (undefined when called directly). */
  readonly requestId?: RequestId;
  /** The protocol version in force (undefined when called directly). */
  readonly protocolVersion?: string;
}

/** A context for direct calls (tests): a signal that never aborts. */
export function directContext(ctx?: Partial<ContentContext>): ContentContext {
  return {
    signal: ctx?.signal ?? new AbortController().signal,
    requestId: ctx?.requestId,
    protocolVersion: ctx?.protocolVersion,
    // Asking (docs/asking.md): called directly there is no client.
    // Bound: the server passes its request context, whose methods need it as `this`.
    elicit: ctx?.elicit ? (ctx.elicit.bind(ctx) as Asker["elicit"]) : NO_CLIENT.elicit,
    sample: ctx?.sample ? ctx.sample.bind(ctx) : NO_CLIENT.sample,
    roots: ctx?.roots ? ctx.roots.bind(ctx) : NO_CLIENT.roots,
    ...(ctx?.forward ? { forward: ctx.forward.bind(ctx) } : {}),
    clientCapabilities: ctx?.clientCapabilities ?? NO_CLIENT.clientCapabilities,
  };
}

/** The display fields every definition may carry, checked by {@link checkDisplay}. */
export interface DisplayFields {
  readonly name: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description?: string;
  /** Icons for display (2025-11-25+), like tool icons. */
  readonly icons?: readonly ToolIcon[];
  /** Sent as `_meta` of the listed entry (2025-06-18+). */
  readonly meta?: Record<string, unknown>;
  /**
   * OAuth scopes a caller needs (docs/auth.md): a caller verified by `http.auth` without them does not see it
   * listed, and a read or get gets a 403 step-up challenge (or an error with `scopeFailure: "result"`).
   */
  readonly scopes?: readonly string[];
}

/**
 * True when a definition has only the display fields most have, all well-formed (a non-empty `name`;
 * `title`, `description` and `mimeType` strings or absent; none of the others): then {@link checkDisplay}
 * has nothing to say, and a definition need not make the name its messages use.
 */
export function plainDisplay(
  d: DisplayFields & { readonly cache?: unknown; readonly annotations?: unknown; readonly mimeType?: unknown },
): boolean {
  return (
    typeof d.name === "string" &&
    d.name !== "" &&
    (d.title === undefined || typeof d.title === "string") &&
    (d.description === undefined || typeof d.description === "string") &&
    (d.mimeType === undefined || typeof d.mimeType === "string") &&
    d.icons === undefined &&
    d.meta === undefined &&
    d.scopes === undefined &&
    d.annotations === undefined &&
    d.cache === undefined
  );
}

/**
 * Checks the display fields and cache hints of a definition.
 * @param what - how messages call it, e.g. `resource "docs://readme"`.
 * @throws ContentDefinitionError naming the field.
 */
export function checkDisplay(
  what: string,
  d: DisplayFields & {
    readonly cache?: CacheHints;
    readonly annotations?: ResourceAnnotations;
    readonly mimeType?: string;
  },
): void {
  if (typeof d.name !== "string" || d.name === "")
    throw new ContentDefinitionError(`${what}: "name" must be a non-empty string`);
  for (const k of ["title", "description", "mimeType"] as const) {
    const value = (d as unknown as Record<string, unknown>)[k];
    if (value !== undefined && typeof value !== "string")
      throw new ContentDefinitionError(`${what}: "${k}" must be a string; got ${typeof value}`);
  }
  if (d.icons !== undefined && (!Array.isArray(d.icons) || d.icons.some((i) => typeof i?.src !== "string"))) {
    throw new ContentDefinitionError(`${what}: "icons" must be an array of { src, mimeType?, sizes?, theme? }`);
  }
  if (d.meta !== undefined && (typeof d.meta !== "object" || d.meta === null || Array.isArray(d.meta)))
    throw new ContentDefinitionError(`${what}: "meta" must be an object`);
  if (d.scopes !== undefined && !isScopes(d.scopes))
    throw new ContentDefinitionError(
      `${what}: "scopes" must be an array of OAuth scope names (no spaces or quotes), e.g. ["files:read"]`,
    );
  const a = d.annotations;
  if (a !== undefined) {
    if (typeof a !== "object" || a === null)
      throw new ContentDefinitionError(
        `${what}: "annotations" must be an object { audience?, priority?, lastModified? }`,
      );
    if (a.priority !== undefined && !(typeof a.priority === "number" && a.priority >= 0 && a.priority <= 1))
      throw new ContentDefinitionError(`${what}: annotations.priority must be a number from 0 to 1`);
    if (
      a.audience !== undefined &&
      (!Array.isArray(a.audience) || a.audience.some((x) => x !== "user" && x !== "assistant"))
    ) {
      throw new ContentDefinitionError(`${what}: annotations.audience must be an array of "user" and/or "assistant"`);
    }
    if (
      a.lastModified !== undefined &&
      (typeof a.lastModified !== "string" || Number.isNaN(Date.parse(a.lastModified)))
    ) {
      throw new ContentDefinitionError(
        `${what}: annotations.lastModified must be an ISO 8601 timestamp, e.g. "2026-01-01T00:00:00Z"`,
      );
    }
  }
  const c = d.cache;
  if (c !== undefined) {
    if (
      typeof c !== "object" ||
      c === null ||
      !Number.isSafeInteger(c.ttlMs) ||
      c.ttlMs < 0 ||
      (c.scope !== "public" && c.scope !== "private")
    ) {
      throw new ContentDefinitionError(
        `${what}: "cache" must be { ttlMs: a whole number of milliseconds ≥ 0, scope: "public" | "private" }`,
      );
    }
  }
}

/** One change a definition reports: a resource's content (uri), a template's list (no uri), or a provider's prompt list. */
export interface ContentChange {
  readonly kind: "resource" | "list" | "prompts";
  readonly uri?: string;
  /** The definition that changed. */
  readonly source: object;
}

const listeners = new Set<(c: ContentChange) => void>();

/**
 * Listens to every `changed()` call in the process (the sessions with subscriptions do).
 * @returns a function that stops listening.
 */
export function onContentChange(fn: (c: ContentChange) => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

/** Tells every listener; a listener that throws does not stop the others. */
export function emitContentChange(c: ContentChange): void {
  for (const fn of [...listeners]) {
    try {
      fn(c);
    } catch (e) {
      logLine(`a change listener failed: ${(e as Error)?.message ?? e}`);
    }
  }
}

/** An author's thrown value as one line for the client (the stack goes to stderr). */
export function thrownMessage(e: unknown): string {
  try {
    return String((e as Error)?.message ?? e);
  } catch {
    return "(a value that cannot be printed)";
  }
}
