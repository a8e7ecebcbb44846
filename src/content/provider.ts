/** @module Content served from elsewhere (another MCP server's resources, templates and prompts): the provider contract the content methods consult after the catalog. */
import type { CacheHints, ContentContext } from "./common.ts";
import type { ResourceContents } from "./resource.ts";
import type { PromptResult } from "./prompt.ts";

const PROVIDER = Symbol.for("mcpbin.contentProvider");

/** A JSON object in wire shape (the newest schema's field names: `_meta`, `title`, `icons`, …). */
export type WireObject = Record<string, unknown>;

/** What a provider serves, fixed when it is made (the server's capabilities follow it). */
export interface ProviderServes {
  readonly resources: boolean;
  readonly prompts: boolean;
  readonly completions: boolean;
  /** Changes of a resource reach `resources/subscribe` and listen streams. */
  readonly subscribe: boolean;
  /** `notifications/resources/list_changed` can come. */
  readonly resourcesListChanged: boolean;
  /** `notifications/prompts/list_changed` can come. */
  readonly promptsListChanged: boolean;
}

/**
 * Resources, templates and prompts the server does not define itself, e.g. an upstream's behind
 * `mcpbin proxy` (src/client/upstream-content.ts). Every item is in wire shape as the newest schema
 * has it; the server projects it onto each client's version. A method asks the catalog first.
 */
export interface ContentProvider {
  readonly [PROVIDER]: true;
  readonly serves: ProviderServes;
  /** Every concrete resource (MCP Resource objects). @throws what reaching the source throws (-32603 on the wire). */
  listResources(ctx: ContentContext): Promise<WireObject[]>;
  /** Every resource template (MCP ResourceTemplate objects). */
  listTemplates(ctx: ContentContext): Promise<WireObject[]>;
  /** Whether a URI is one this provider serves (before reading it). */
  owns(uri: string): boolean;
  /**
   * Reads a URI it owns.
   * @returns the contents and the cache hints of the source (undefined: the server's default for reads).
   * @throws RpcError as the source answered (its not-found becomes the era's), or Error.
   */
  read(uri: string, ctx: ContentContext): Promise<{ contents: ResourceContents[]; cache?: CacheHints }>;
  /** Every prompt (MCP Prompt objects). */
  listPrompts(ctx: ContentContext): Promise<WireObject[]>;
  /** Whether a prompt of this name is one it serves. */
  hasPrompt(name: string): boolean;
  /** Gets a prompt it serves. @throws RpcError as the source answered. */
  getPrompt(name: string, args: Readonly<Record<string, unknown>>, ctx: ContentContext): Promise<PromptResult>;
  /**
   * Completes an argument (MCP CompleteRequest params, with the reference as the client sent it).
   * @returns the completion, or undefined when the reference is not one of its own.
   */
  complete(
    params: {
      ref: { type: string; uri?: string; name?: string };
      argument: { name: string; value: string };
      context?: unknown;
    },
    ctx: ContentContext,
  ): Promise<{ values: string[]; total?: number; hasMore?: boolean }> | undefined;
  /** A session subscribed to a URI it owns (`resources/subscribe`, or a listen stream); the provider counts subscribers. */
  subscribe(uri: string): void;
  /** A session unsubscribed (or its listen stream ended). */
  unsubscribe(uri: string): void;
}

/**
 * Marks an object as a {@link ContentProvider} (serve() takes it in `resources` or `prompts`).
 * @param p - the provider without its mark.
 * @returns the same object, marked.
 */
export function contentProvider<P extends Omit<ContentProvider, typeof PROVIDER>>(p: P): P & ContentProvider {
  return Object.assign(p, { [PROVIDER]: true as const });
}

/** True for values made by {@link contentProvider}. */
export function isContentProvider(x: unknown): x is ContentProvider {
  return typeof x === "object" && x !== null && PROVIDER in x;
}

const NOTHING: ProviderServes = Object.freeze({
  resources: false,
  prompts: false,
  completions: false,
  subscribe: false,
  resourcesListChanged: false,
  promptsListChanged: false,
});

/**
 * A provider whose content comes from one set later (a server's upstreams, attached when it starts): until
 * then it serves nothing.
 * @returns the provider, and `set` to give it the one it stands for.
 */
export function deferredProvider(): { readonly provider: ContentProvider; set(p: ContentProvider): void } {
  let target: ContentProvider | undefined;
  const t = (): ContentProvider => {
    if (!target) throw new Error("the upstreams' content is not attached yet");
    return target;
  };
  const provider = contentProvider({
    get serves() {
      return target?.serves ?? NOTHING;
    },
    // The skills of the one it stands for (an upstream's, the skills extension), once set.
    get skills() {
      return (target as { skills?: unknown } | undefined)?.skills;
    },
    listResources: (ctx) => (target ? target.listResources(ctx) : Promise.resolve([])),
    listTemplates: (ctx) => (target ? target.listTemplates(ctx) : Promise.resolve([])),
    owns: (uri) => target?.owns(uri) ?? false,
    read: (uri, ctx) => t().read(uri, ctx),
    listPrompts: (ctx) => (target ? target.listPrompts(ctx) : Promise.resolve([])),
    hasPrompt: (name) => target?.hasPrompt(name) ?? false,
    getPrompt: (name, args, ctx) => t().getPrompt(name, args, ctx),
    complete: (params, ctx) => target?.complete(params, ctx),
    subscribe: (uri) => target?.subscribe(uri),
    unsubscribe: (uri) => target?.unsubscribe(uri),
  });
  return { provider, set: (p) => void (target = p) };
}
