/** @module A server's resources, templates and prompts: the duplicate guard, look-up by URI and name, listing and completion. No I/O. */
import { ContentDefinitionError, type CacheHints, type ContentContext, type ContentSource } from "./common.ts";
import {
  isResource,
  isResourceTemplate,
  type ListedResource,
  type Resource,
  type ResourceTemplate,
} from "./resource.ts";
import { isPrompt, type Prompt } from "./prompt.ts";
import { isContentProvider, type ContentProvider } from "./provider.ts";
import { listingOf } from "./project.ts";
import type { ContentOptions } from "./options.ts";
import { PRIVATE_LIST_CACHE, PRIVATE_NO_CACHE, STATIC_LIST_CACHE } from "../shared/cache.ts";

/** A concrete resource to list: its URI and listing fields, and what offered it. */
export interface ListedEntry {
  readonly uri: string;
  readonly listing: ListedResource;
  /** Undefined for a provider's entry. */
  readonly from: Resource | ResourceTemplate | undefined;
}

/** Where a URI leads: a resource, or the first template that matches it with the matched variables. */
export type Found =
  { readonly resource: Resource } | { readonly template: ResourceTemplate; readonly vars: Record<string, string> };

/**
 * A URI with every non-ASCII character percent-encoded (UTF-8) and every escape's hex in upper case: the form
 * two spellings of one URI share (`docs:///menü` and `docs:///men%c3%bc`, RFC 3986 §2.1, §6.2.2.1).
 */
export function encodedForm(uri: string): string {
  return uri.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase()).replace(/[^\x00-\x7f]+/g, (s) => encodeURIComponent(s));
}

function where(s: ContentSource | undefined): string {
  return s ? ` (${s.dir === "." || s.dir === "" ? s.file : `${s.dir}/${s.file}`})` : "";
}

/** The resources, templates and prompts of one server. */
export class Catalog {
  readonly resources: ReadonlyMap<string, Resource>;
  readonly templates: readonly ResourceTemplate[];
  readonly prompts: ReadonlyMap<string, Prompt>;
  /** Content from elsewhere (an upstream's), consulted after the server's own. */
  readonly providers: readonly ContentProvider[];

  /**
   * @throws ContentDefinitionError on a value not made by resource()/resourceTemplate()/prompt(), or two
   *   with one URI, one template or one prompt name (naming both sources when the loader set them).
   */
  constructor(o: ContentOptions) {
    const resources = new Map<string, Resource>();
    const templates = new Map<string, ResourceTemplate>();
    const prompts = new Map<string, Prompt>();
    const providers = new Set<ContentProvider>();
    const fix = (a: { source?: ContentSource }, b: { source?: ContentSource }, key: string) =>
      a.source && b.source
        ? `rename one, or filter one out with include/exclude in the config`
        : `keep only one of them in serve()'s "${key}"`;
    for (const x of (o.resources ?? []).flat()) {
      // Resources first: a server may have thousands of them.
      if (isResource(x)) {
        const uri = x.uri;
        if (resources.has(uri)) {
          const prev = resources.get(uri)!;
          throw new ContentDefinitionError(
            `two resources have the URI "${uri}"${where(prev.source)}${where(x.source)}: ${fix(prev, x, "resources")}`,
          );
        }
        resources.set(uri, x);
      } else if (isContentProvider(x)) providers.add(x);
      else if (isResourceTemplate(x)) {
        const prev = templates.get(x.uriTemplate);
        if (prev)
          throw new ContentDefinitionError(
            `two resource templates have the template "${x.uriTemplate}"${where(prev.source)}${where(x.source)}: ${fix(prev, x, "resources")}`,
          );
        templates.set(x.uriTemplate, x);
      } else {
        throw new ContentDefinitionError(
          `serve(): every entry of "resources" must be made by resource() or resourceTemplate(); got ${x === null ? "null" : typeof x}`,
        );
      }
    }
    for (const x of (o.prompts ?? []).flat()) {
      if (isContentProvider(x)) {
        providers.add(x);
        continue;
      }
      if (!isPrompt(x))
        throw new ContentDefinitionError(
          `serve(): every entry of "prompts" must be made by prompt(); got ${x === null ? "null" : typeof x}`,
        );
      const prev = prompts.get(x.name);
      if (prev)
        throw new ContentDefinitionError(
          `two prompts are named "${x.name}"${where(prev.source)}${where(x.source)}: ${fix(prev, x, "prompts")}`,
        );
      prompts.set(x.name, x);
    }
    this.resources = resources;
    this.templates = [...templates.values()];
    this.prompts = prompts;
    this.providers = [...providers];
  }

  /** Adds a provider (a mounted server's content): it is consulted after the others. */
  addProvider(p: ContentProvider): void {
    if (!this.providers.includes(p)) (this.providers as ContentProvider[]).push(p);
  }

  /** Removes a provider added with {@link addProvider}; false when it was not there. */
  removeProvider(p: ContentProvider): boolean {
    const i = this.providers.indexOf(p);
    if (i >= 0) (this.providers as ContentProvider[]).splice(i, 1);
    return i >= 0;
  }

  #fixed: ListedEntry[] | undefined;

  /** The fixed resources as listed, in the order given (computed once). */
  get fixedEntries(): readonly ListedEntry[] {
    return (this.#fixed ??= [...this.resources.values()].map((r) => ({
      uri: r.uri,
      listing: { ...r.definition, mimeType: r.mimeType, size: r.size },
      from: r,
    })));
  }

  /** Whether a resource, template or prompt declares OAuth `scopes` (lists then differ between callers). */
  get scoped(): boolean {
    return (this.#scoped ??= [...this.resources.values(), ...this.templates, ...this.prompts.values()].some(
      (x) => x.definition.scopes?.length,
    ));
  }

  #scoped: boolean | undefined;

  /** The scopes the definition behind a URI declares (a fixed resource's, else the matching template's). */
  scopesOf(uri: string): readonly string[] | undefined {
    const f = this.find(uri);
    return f === undefined ? undefined : "resource" in f ? f.resource.definition.scopes : f.template.definition.scopes;
  }

  /** Whether the server has anything to read (the `resources` capability). */
  get hasResources(): boolean {
    return this.resources.size > 0 || this.templates.length > 0 || this.providers.some((p) => p.serves.resources);
  }

  /** Whether the server has prompts (its own or a provider's). */
  get hasPrompts(): boolean {
    return this.prompts.size > 0 || this.providers.some((p) => p.serves.prompts);
  }

  /** Whether `resources/list` is computed per request (a template has `list`, or a provider lists): it can change, and is private. */
  get dynamicList(): boolean {
    return (
      this.templates.some((t) => t.definition.list !== undefined) || this.providers.some((p) => p.serves.resources)
    );
  }

  /** Whether `resources/list` can change while a client is connected (a template lists, or a provider says so). */
  get listChanges(): boolean {
    return (
      this.templates.some((t) => t.definition.list !== undefined) ||
      this.providers.some((p) => p.serves.resourcesListChanged)
    );
  }

  /** Whether `prompts/list` can change while a client is connected (only a provider's can). */
  get promptListChanges(): boolean {
    return this.providers.some((p) => p.serves.promptsListChanged);
  }

  /** Whether resource changes reach subscribers: the server's own always; a provider's when it says so. */
  get subscribable(): boolean {
    return this.resources.size > 0 || this.templates.length > 0 || this.providers.some((p) => p.serves.subscribe);
  }

  /** The provider that owns a URI nothing of the server's own serves. */
  providerOf(uri: string): ContentProvider | undefined {
    return this.find(uri) ? undefined : this.providers.find((p) => p.serves.resources && p.owns(uri));
  }

  /** Whether anything can be completed (the `completions` capability). */
  get hasCompletions(): boolean {
    return (
      this.providers.some((p) => p.serves.completions) ||
      this.templates.some((t) => t.definition.complete !== undefined) ||
      [...this.prompts.values()].some((p) => p.definition.complete !== undefined || Object.keys(p.options).length > 0)
    );
  }

  /** Cache hints of `resources/list` (2026-07-28): every page of it has the same. */
  get listCache(): CacheHints {
    return this.dynamicList ? PRIVATE_NO_CACHE : this.scoped ? PRIVATE_LIST_CACHE : STATIC_LIST_CACHE;
  }

  /**
   * Every concrete resource, in order: the fixed resources as given, then what each template's `list`
   * returns (an entry's mimeType defaults to the template's; a URI listed twice is listed once).
   * @throws what a `list` function throws.
   */
  async listed(ctx: ContentContext): Promise<ListedEntry[]> {
    const out: ListedEntry[] = [...this.fixedEntries];
    const fromProviders = await Promise.all(
      this.providers.filter((p) => p.serves.resources).map((p) => p.listResources(ctx)),
    );
    const seen = new Set(this.resources.keys());
    for (const t of this.templates) {
      if (!t.definition.list) continue;
      const items = await t.definition.list(ctx);
      if (!Array.isArray(items))
        throw new Error(`the list() of resource template ${t.uriTemplate} must return an array of { uri, name }`);
      for (const item of items as ListedResource[]) {
        if (typeof item?.uri !== "string" || typeof item.name !== "string")
          throw new Error(
            `the list() of resource template ${t.uriTemplate} returned an entry without a string "uri" and "name"`,
          );
        if (seen.has(item.uri)) continue;
        seen.add(item.uri);
        out.push({
          uri: item.uri,
          listing:
            item.mimeType === undefined && t.definition.mimeType !== undefined
              ? { ...item, mimeType: t.definition.mimeType }
              : item,
          from: t,
        });
      }
    }
    for (const items of fromProviders) {
      for (const w of items) {
        if (typeof w?.uri !== "string" || typeof w.name !== "string" || seen.has(w.uri)) continue;
        seen.add(w.uri);
        out.push({ uri: w.uri, listing: listingOf(w) as unknown as ListedResource, from: undefined });
      }
    }
    return out;
  }

  #encoded: Map<string, Resource> | undefined;
  /** The resources whose URI has a non-ASCII character or an escape, by {@link encodedForm} (made on first use). */
  #byEncodedForm(): Map<string, Resource> {
    if (this.#encoded) return this.#encoded;
    this.#encoded = new Map();
    for (const [uri, r] of this.resources) if (/[^\x00-\x7f]|%/.test(uri)) this.#encoded.set(encodedForm(uri), r);
    return this.#encoded;
  }

  /** Where a URI leads (a resource's URI as written or percent-encoded, else a template's match), or undefined when nothing serves it. */
  find(uri: string): Found | undefined {
    const r =
      this.resources.get(uri) ?? (/[^\x00-\x7f]|%/.test(uri) ? this.#byEncodedForm().get(encodedForm(uri)) : undefined);
    if (r) return { resource: r };
    for (const t of this.templates) {
      const vars = t.match(uri);
      if (vars) return { template: t, vars };
    }
    return undefined;
  }
}
