/** @module What the content capability keeps on the server (ServerState, src/server/connection.ts): its catalog of resources, resource templates and prompts, with those other capabilities serve (an app's view, a skill's files). */
import type { ServerState } from "../server/connection.ts";
import type { ServerOptions } from "../server/options.ts";
import { Catalog } from "./catalog.ts";
import type { Resource } from "./resource.ts";

declare module "../server/connection.ts" {
  interface ServerState {
    /** Its resources, resource templates and prompts. */
    readonly content: Catalog;
  }
}

/** Resources other capabilities serve through the catalog, in the order they were added. */
const sources: ((registry: ServerState) => readonly Resource[])[] = [];

/**
 * Serves the resources a capability makes for each server beside the author's own (MCP Apps: each app's `ui://`
 * resource; skills: each skill's files). Called when the capability's module loads.
 * @param source - the resources of one server, from what that capability keeps on it (its `server` hook runs first).
 */
export function addResourceSource(source: (registry: ServerState) => readonly Resource[]): void {
  sources.push(source);
}

/**
 * Gives a server its catalog (the content capability's `server` hook, src/content/register.ts): `resources`,
 * `resourceTemplates` and `prompts` of the options, and the resources of {@link addResourceSource}.
 * @throws ContentDefinitionError on a bad or duplicate resource, template or prompt.
 */
export function installCatalog(registry: ServerState, options: ServerOptions): void {
  const extra = sources.flatMap((s) => s(registry));
  const content = new Catalog(
    extra.length ? { ...options, resources: [...(options.resources ?? []), ...extra] } : options,
  );
  Object.defineProperty(registry, "content", { value: content, enumerable: true });
}
