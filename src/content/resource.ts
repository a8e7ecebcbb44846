/** @module resource() and resourceTemplate(): definitions of readable content (MCP server/resources), their checks, and reading them. */
import { RESOURCE_BRAND, RESOURCE_TEMPLATE_BRAND } from "../runtime/contract.ts";
import * as v from "valibot";
import { callerFile, declareFile, type DeclaredFile } from "./files.ts";
import {
  checkDisplay,
  ContentDefinitionError,
  plainDisplay,
  directContext,
  emitContentChange,
  type CacheHints,
  type ContentContext,
  type ContentSource,
  type DisplayFields,
  type ResourceAnnotations,
} from "./common.ts";
import {
  escapesPath,
  expandUriTemplate,
  matchUriTemplate,
  parseUriTemplate,
  UriTemplateError,
  type UriTemplate,
} from "./uri-template.ts";
import { issueLine } from "../tools/issues.ts";
import { unknownKey } from "../shared/option-keys.ts";

/** One item of a read result, version-neutral (MCP TextResourceContents / BlobResourceContents; `blob` is base64). */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: Record<string, unknown>;
}

/** One content item a reader may return among several. `uri` defaults to the URI read. */
export interface ContentItem {
  readonly uri?: string;
  readonly mimeType?: string;
  readonly text?: string;
  /** Raw bytes, or a base64 string. */
  readonly blob?: Uint8Array | string;
  /** Sent as the item's `_meta` (2025-06-18+). */
  readonly meta?: Record<string, unknown>;
}

/** What a reader returns: text, bytes, one item or several. */
export type ReadValue = string | Uint8Array | ContentItem | readonly ContentItem[];

/** What `resource()` takes: the listing fields and exactly one source of content. */
export interface ResourceDefinition extends DisplayFields {
  /** An absolute URI with a scheme, e.g. `docs://readme` or `file:///etc/hosts`. */
  readonly uri: string;
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  /** Size in bytes, when known (a `text`, `blob` or `file` resource has it filled in). */
  readonly size?: number;
  readonly text?: string;
  readonly blob?: Uint8Array;
  /** A file read at build time into the executable (relative to the declaring module), or a `file:` URL. */
  readonly file?: string | URL;
  read?(ctx: ContentContext): ReadValue | Promise<ReadValue>;
  /** 2026-07-28 cache hints of reads (default `{ ttlMs: 0, scope: "private" }`). */
  readonly cache?: CacheHints;
}

/** Every key `resource()` takes; any other is refused at definition (the compiler checks none is missing). */
export const RESOURCE_KEYS = [
  "uri",
  "name",
  "title",
  "description",
  "icons",
  "meta",
  "scopes",
  "mimeType",
  "annotations",
  "size",
  "text",
  "blob",
  "file",
  "read",
  "cache",
] as const satisfies readonly (keyof ResourceDefinition)[];
const RESOURCE_KEYS_COMPLETE: [Exclude<keyof ResourceDefinition, (typeof RESOURCE_KEYS)[number]>] extends [never]
  ? true
  : never = true;
void RESOURCE_KEYS_COMPLETE;

/** An entry a template lists as a concrete resource (`resources/list`). */
export interface ListedResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: ResourceAnnotations;
  readonly icons?: DisplayFields["icons"];
  readonly meta?: Record<string, unknown>;
}

type AnyObjectSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;
type VarsOf<S> = S extends v.GenericSchema ? v.InferOutput<S> : Record<string, string>;

/** A completer: the values that start a given partial value (at most 100 are sent). */
export type Completer = (
  value: string,
  ctx: ContentContext & { readonly arguments: Readonly<Record<string, string>> },
) => readonly string[] | Promise<readonly string[]>;

/** What `resourceTemplate()` takes. */
export interface ResourceTemplateDefinition<S extends AnyObjectSchema | undefined = undefined> extends DisplayFields {
  /** An RFC 6570 template (levels 1-3), e.g. `notes:///{+path}`. */
  readonly uriTemplate: string;
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  /** A valibot object schema the matched variables must pass before `read` (else -32602). */
  readonly variables?: S;
  /** Concrete resources this template offers, listed by `resources/list`. */
  list?(ctx: ContentContext): readonly ListedResource[] | Promise<readonly ListedResource[]>;
  /** Completers by variable name (`completion/complete` with `ref/resource`). */
  readonly complete?: Readonly<Record<string, Completer>>;
  read(vars: VarsOf<S>, ctx: ContentContext & { readonly uri: string }): ReadValue | Promise<ReadValue>;
  /** 2026-07-28 cache hints of reads (default `{ ttlMs: 0, scope: "private" }`). */
  readonly cache?: CacheHints;
}

/** Every key `resourceTemplate()` takes; any other is refused at definition (the compiler checks none is missing). */
export const RESOURCE_TEMPLATE_KEYS = [
  "uriTemplate",
  "name",
  "title",
  "description",
  "icons",
  "meta",
  "scopes",
  "mimeType",
  "annotations",
  "variables",
  "list",
  "complete",
  "read",
  "cache",
] as const satisfies readonly (keyof ResourceTemplateDefinition)[];
const TEMPLATE_KEYS_COMPLETE: [
  Exclude<keyof ResourceTemplateDefinition, (typeof RESOURCE_TEMPLATE_KEYS)[number]>,
] extends [never]
  ? true
  : never = true;
void TEMPLATE_KEYS_COMPLETE;

const RESOURCE = RESOURCE_BRAND;
/** Where a resource with fixed content (text, blob, file) keeps its contents once read. */
const FIXED = Symbol("mcpbin.resource.fixed");

/**
 * The contents of a resource with fixed content (`text`, `blob` or `file`), read without a promise
 * (the server answers it synchronously); undefined for a resource with `read`.
 * @throws Error when an embedded file cannot be read.
 */
export function fixedContents(r: Resource): ResourceContents[] | undefined {
  return r.definition.read ? undefined : fixedOf(r as unknown as ResourceRecord);
}
const TEMPLATE = RESOURCE_TEMPLATE_BRAND;

/** A defined resource. */
export interface Resource {
  readonly [RESOURCE]: true;
  readonly uri: string;
  readonly name: string;
  readonly definition: ResourceDefinition;
  /** The mimeType it is listed with: the definition's, or a `file:`'s guessed from its extension. */
  readonly mimeType?: string;
  /** The size in bytes when the content is fixed. */
  readonly size?: number;
  /** The embedded or declared file, for a `file:` resource. */
  readonly file?: DeclaredFile;
  /**
   * Reads it like `resources/read` does.
   * @throws what the reader throws; ContentDefinitionError when it returns something unreadable.
   */
  read(ctx?: Partial<ContentContext>): Promise<ResourceContents[]>;
  /** Tells subscribers the content changed (`notifications/resources/updated`). */
  changed(): void;
  source?: ContentSource;
}

/** A defined resource template. */
export interface ResourceTemplate<S extends AnyObjectSchema | undefined = AnyObjectSchema | undefined> {
  readonly [TEMPLATE]: true;
  readonly uriTemplate: string;
  readonly name: string;
  readonly definition: ResourceTemplateDefinition<S>;
  readonly template: UriTemplate;
  /** Matches a URI: the raw variables, or undefined when the URI is not of this template's form. */
  match(uri: string): Record<string, string> | undefined;
  /** The URI for these variables. */
  expand(vars: Readonly<Record<string, string | undefined>>): string;
  /**
   * Reads a URI (or the URI of these variables) like `resources/read` does.
   * @throws ResourceReadError when the URI does not match or its variables are refused.
   */
  read(
    uriOrVars: string | Readonly<Record<string, string>>,
    ctx?: Partial<ContentContext>,
  ): Promise<ResourceContents[]>;
  /** With a URI: tells its subscribers it changed. Without: the template's list changed (`notifications/resources/list_changed`). */
  changed(uri?: string): void;
  source?: ContentSource;
}

/** A read refused before it ran (a variable that fails its schema, a `..` escape): -32602 on the wire. */
export class ResourceReadError extends Error {
  readonly code = "RESOURCE_READ";
  constructor(
    message: string,
    readonly uri: string,
  ) {
    super(message);
    this.name = "ResourceReadError";
  }
}

/** An absolute URI: a scheme, then no space, control character or character URIs may not hold (one test per resource). */
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001f<>"{}|\\^`]*$/;

/** Checks an absolute URI; the message names what to change. */
function checkUri(what: string, uri: unknown): string {
  if (typeof uri !== "string" || !ABSOLUTE_URI.test(uri)) {
    const hint =
      typeof uri === "string" && /[{}]/.test(uri)
        ? `; a URI with {variables} is a template: use resourceTemplate({ uriTemplate: ${JSON.stringify(uri)}, … })`
        : "";
    throw new ContentDefinitionError(
      `${what}: ${JSON.stringify(uri)} is not a URI: give an absolute URI with a scheme and no spaces, e.g. "docs://readme"${hint}`,
    );
  }
  return uri;
}

/** Base64 of bytes. */
function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Bytes as text when they are UTF-8 without NUL (byte for byte on the way back), else undefined. */
function asText(bytes: Uint8Array): string | undefined {
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

function withMime(c: ResourceContents, mimeType: string | undefined): ResourceContents {
  if (mimeType !== undefined) c.mimeType = mimeType;
  return c;
}

/** A file's mime type from its extension (without parameters), or undefined for an unknown one. */
function mimeOf(path: string): string | undefined {
  const t = Bun.file(path).type.split(";")[0]!;
  return t === "application/octet-stream" ? undefined : t;
}

/**
 * Defines a resource (MCP server/resources): fixed `text` or `blob`, a `file` embedded at build time,
 * or a `read` function.
 * @param def - see {@link ResourceDefinition}.
 * @returns a {@link Resource}: servable by `serve({ resources })` and readable directly (`await r.read()`).
 * @throws ContentDefinitionError on a bad URI, not exactly one content source, a missing file, or a
 *   bad display field.
 */
export function resource(def: ResourceDefinition): Resource {
  const uri = checkUri("resource", (def as { uri?: unknown })?.uri);
  const unknown = unknownKey(def, RESOURCE_KEYS);
  if (unknown) throw new ContentDefinitionError(`${named(uri)}: ${unknown}`);
  // The messages' name for it is made only for a message (a start with thousands of resources makes none).
  if (!plainDisplay(def)) checkDisplay(named(uri), def);
  const n =
    +(def.text !== undefined) + +(def.blob !== undefined) + +(def.file !== undefined) + +(def.read !== undefined);
  if (n !== 1) {
    const got = (["text", "blob", "file", "read"] as const).filter((k) => def[k] !== undefined);
    throw new ContentDefinitionError(
      `${named(uri)}: give exactly one of "text", "blob", "file" or "read"${got.length ? ` (got ${got.join(" and ")})` : ""}`,
    );
  }
  if (def.text !== undefined && typeof def.text !== "string")
    throw new ContentDefinitionError(`${named(uri)}: "text" must be a string`);
  if (def.blob !== undefined && !(def.blob instanceof Uint8Array))
    throw new ContentDefinitionError(`${named(uri)}: "blob" must be a Uint8Array`);
  if (def.read !== undefined && typeof def.read !== "function")
    throw new ContentDefinitionError(`${named(uri)}: "read" must be a function`);
  if (def.size !== undefined && !(Number.isSafeInteger(def.size) && def.size >= 0))
    throw new ContentDefinitionError(`${named(uri)}: "size" must be a whole number of bytes`);
  let file: DeclaredFile | undefined;
  let mimeType = def.mimeType;
  if (def.file !== undefined) {
    if (typeof def.file !== "string" && !(def.file instanceof URL))
      throw new ContentDefinitionError(`${named(uri)}: "file" must be a path or a file: URL`);
    try {
      file = declareFile(uri, def.file, callerFile());
    } catch (e) {
      throw new ContentDefinitionError(`${named(uri)}: ${(e as Error).message}`);
    }
    mimeType ??= mimeOf(typeof def.file === "string" ? def.file : def.file.pathname);
  }
  // One object per resource of one class (read, changed and the size on its prototype): no closures,
  // and a text's size in bytes is counted when listed, so a server with thousands of resources starts
  // without that work (docs/benchmarks.md).
  return new ResourceRecord(uri, def, mimeType, file) as unknown as Resource;
}

/** How messages name a resource. */
function named(uri: string): string {
  return `resource ${JSON.stringify(uri)}`;
}

/** The size in bytes of a text: its length when it is short ASCII, else its UTF-8 length. */
function byteSize(text: string): number {
  return text.length < 128 && /^[\x00-\x7f]*$/.test(text) ? text.length : Buffer.byteLength(text);
}

/** A resource: its own fields, its fixed contents once read, and the methods every resource shares. */
class ResourceRecord {
  declare readonly [RESOURCE]: true;
  readonly uri: string;
  readonly name: string;
  readonly definition: ResourceDefinition;
  readonly mimeType: string | undefined;
  readonly file: DeclaredFile | undefined;
  [FIXED]: ResourceContents[] | undefined;
  declare source?: ContentSource;
  constructor(uri: string, def: ResourceDefinition, mimeType: string | undefined, file: DeclaredFile | undefined) {
    this.uri = uri;
    this.name = def.name;
    this.definition = def;
    this.mimeType = mimeType;
    this.file = file;
    this[FIXED] = undefined;
  }

  /** The definition's `size`, else the bytes of its `text` or `blob` (undefined for `file` and `read`). */
  get size(): number | undefined {
    const d = this.definition;
    if (d.size !== undefined) return d.size;
    if (d.text !== undefined) return byteSize(d.text);
    return d.blob?.byteLength;
  }

  async read(ctx?: Partial<ContentContext>): Promise<ResourceContents[]> {
    const d = this.definition;
    if (d.read)
      return toContents(
        `resource ${JSON.stringify(this.uri)}`,
        await d.read(directContext(ctx)),
        this.uri,
        this.mimeType,
      );
    return fixedOf(this);
  }

  changed(): void {
    emitContentChange({ kind: "resource", uri: this.uri, source: this });
  }
}
(ResourceRecord.prototype as { [RESOURCE]: true })[RESOURCE] = true;

/** The contents of a resource without `read`, computed on first use and kept. */
function fixedOf(r: ResourceRecord): ResourceContents[] {
  let fixed = r[FIXED];
  if (fixed) return fixed;
  const { uri, mimeType, file, definition: def } = r;
  if (file) {
    const bytes = file.read();
    const text = asText(bytes);
    fixed = [withMime(text === undefined ? { uri, blob: base64(bytes) } : { uri, text }, mimeType)];
  } else fixed = toContents(`resource ${JSON.stringify(uri)}`, def.text ?? def.blob, uri, mimeType);
  return (r[FIXED] = fixed);
}

/**
 * Defines a resource template (MCP server/resources, RFC 6570 levels 1-3).
 * @param def - see {@link ResourceTemplateDefinition}.
 * @returns a {@link ResourceTemplate}: servable by `serve({ resources })` and readable directly.
 * @throws ContentDefinitionError on a bad template, a `variables` schema that is not an object or
 *   names variables the template lacks, a completer for an unknown variable, or a missing `read`.
 */
export function resourceTemplate<S extends AnyObjectSchema | undefined = undefined>(
  def: ResourceTemplateDefinition<S>,
): ResourceTemplate<S> {
  const text = (def as { uriTemplate?: unknown })?.uriTemplate;
  let template: UriTemplate;
  try {
    template = parseUriTemplate(text as string);
  } catch (e) {
    throw new ContentDefinitionError(`resourceTemplate: ${e instanceof UriTemplateError ? e.message : String(e)}`);
  }
  const what = `resource template ${JSON.stringify(template.text)}`;
  const unknown = unknownKey(def, RESOURCE_TEMPLATE_KEYS);
  if (unknown) throw new ContentDefinitionError(`${what}: ${unknown}`);
  checkDisplay(what, def);
  if (typeof def.read !== "function")
    throw new ContentDefinitionError(`${what}: "read" must be a function ({ ...variables }, ctx) => content`);
  if (def.list !== undefined && typeof def.list !== "function")
    throw new ContentDefinitionError(`${what}: "list" must be a function returning [{ uri, name }]`);
  const schema = def.variables as (v.GenericSchema & { entries?: Record<string, unknown> }) | undefined;
  if (schema !== undefined) {
    if (typeof schema !== "object" || schema === null || !schema.entries)
      throw new ContentDefinitionError(
        `${what}: "variables" must be a valibot object schema, e.g. v.object({ path: v.string() })`,
      );
    for (const k of Object.keys(schema.entries)) {
      if (!template.variables.includes(k))
        throw new ContentDefinitionError(
          `${what}: "variables" names "${k}", which the template does not have (it has ${template.variables.join(", ") || "none"})`,
        );
    }
  }
  for (const k of Object.keys(def.complete ?? {})) {
    if (!template.variables.includes(k))
      throw new ContentDefinitionError(
        `${what}: "complete" names "${k}", which the template does not have (it has ${template.variables.join(", ") || "none"})`,
      );
    if (typeof def.complete![k] !== "function")
      throw new ContentDefinitionError(`${what}: complete.${k} must be a function (value, ctx) => string[]`);
  }
  const t: ResourceTemplate<S> = {
    [TEMPLATE]: true,
    uriTemplate: template.text,
    name: def.name,
    definition: def,
    template,
    match: (uri) => matchUriTemplate(template, uri),
    expand: (vars) => expandUriTemplate(template, vars),
    async read(uriOrVars, ctx) {
      const uri = typeof uriOrVars === "string" ? uriOrVars : expandUriTemplate(template, uriOrVars);
      const raw = matchUriTemplate(template, uri);
      if (!raw) throw new ResourceReadError(`${uri} does not match the template ${template.text}`, uri);
      return readTemplate(t as ResourceTemplate, uri, raw, ctx);
    },
    changed(uri) {
      emitContentChange(uri === undefined ? { kind: "list", source: t } : { kind: "resource", uri, source: t });
    },
  };
  return t;
}

/**
 * Reads a URI a template matched: refuses a `..` segment in any variable and variables that fail the
 * template's `variables` schema (ResourceReadError, -32602 on the wire), then runs `read`.
 * @param raw - the matched variables.
 */
export async function readTemplate(
  t: ResourceTemplate,
  uri: string,
  raw: Record<string, string>,
  ctx?: Partial<ContentContext>,
): Promise<ResourceContents[]> {
  for (const [k, value] of Object.entries(raw)) {
    if (escapesPath(value))
      throw new ResourceReadError(
        `Invalid params: the variable "${k}" of ${uri} contains a ".." segment, which is refused`,
        uri,
      );
  }
  let vars: unknown = raw;
  const schema = t.definition.variables;
  if (schema) {
    const r = v.safeParse(schema, raw);
    if (!r.success)
      throw new ResourceReadError(
        `Invalid params: ${uri} does not fit the template ${t.uriTemplate}: ${r.issues.map(issueLine).join("; ")}`,
        uri,
      );
    vars = r.output;
  }
  const value = await t.definition.read(vars as never, { ...directContext(ctx), uri });
  return toContents(`resource template ${JSON.stringify(t.uriTemplate)}`, value, uri, t.definition.mimeType);
}

/** True for values made by {@link resource}. */
export function isResource(x: unknown): x is Resource {
  return typeof x === "object" && x !== null && RESOURCE in x;
}

/** True for values made by {@link resourceTemplate}. */
export function isResourceTemplate(x: unknown): x is ResourceTemplate {
  return typeof x === "object" && x !== null && TEMPLATE in x;
}
