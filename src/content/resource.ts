/** @module resource(): definitions of readable content with fixed text, bytes, an embedded file or a reader (MCP server/resources), their checks, and reading them; the content folder's entry for resources and templates. */
import { RESOURCE_BRAND } from "../runtime/contract.ts";
import { callerFile, declareFile, type DeclaredFile } from "./files.ts";
import {
  checkDisplay,
  ContentDefinitionError,
  plainDisplay,
  directContext,
  emitContentChange,
  type ContentContext,
  type ContentSource,
} from "./common.ts";
import { unknownKey } from "../shared/option-keys.ts";
import { RESOURCE_KEYS, type Resource, type ResourceContents, type ResourceDefinition } from "./resource-types.ts";
import { asText, base64, byteSize, mimeOf, toContents, withMime } from "./resource-contents.ts";

export {
  RESOURCE_KEYS,
  RESOURCE_TEMPLATE_KEYS,
  ResourceReadError,
  type Completer,
  type ContentItem,
  type ListedResource,
  type ReadValue,
  type Resource,
  type ResourceContents,
  type ResourceDefinition,
  type ResourceTemplate,
  type ResourceTemplateDefinition,
} from "./resource-types.ts";
export { isResourceTemplate, readTemplate, resourceTemplate } from "./resource-template.ts";

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
/** True for values made by {@link resource}. */
export function isResource(x: unknown): x is Resource {
  return typeof x === "object" && x !== null && RESOURCE in x;
}
