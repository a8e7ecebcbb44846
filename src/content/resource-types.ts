/** @module The shapes of resources and resource templates (MCP server/resources): what resource() and resourceTemplate() take and return, their keys, and the read refusal. */
import { RESOURCE_BRAND, RESOURCE_TEMPLATE_BRAND } from "../runtime/contract.ts";
import type * as v from "valibot";
import type { DeclaredFile } from "./files.ts";
import type { CacheHints, ContentContext, ContentSource, DisplayFields, ResourceAnnotations } from "./common.ts";
import type { UriTemplate } from "./uri-template.ts";

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

/** A valibot object schema (a template's `variables`). */
export type AnyObjectSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;
/** The variables a template's `read` receives: its schema's output, else the raw strings. */
export type VarsOf<S> = S extends v.GenericSchema ? v.InferOutput<S> : Record<string, string>;

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
