/** @module What goes into the change feed of one HTTP endpoint: the server's tool list changes and its resources' and prompts' changes. */
import { onContentChange } from "../content/common.ts";
import type { Registry } from "../server/registry.ts";
import type { ChangeFeed } from "./change-feed.ts";

/**
 * Appends every change of the server to the feed: the tool list (addTool, removeTool, upstreams), a
 * resource's `changed()`, a template's list and a provider's prompt list.
 * @param registry - the server.
 * @param feed - the feed of its GET streams.
 * @returns a function that stops it.
 */
export function feedChanges(registry: Registry, feed: ChangeFeed): () => void {
  const stopTools = registry.onToolsChanged(() => feed.append({ topic: "tools" }));
  const stopContent = onContentChange((c) => {
    if (c.kind === "resource") feed.append({ topic: "resource", uri: c.uri });
    else feed.append({ topic: c.kind === "list" ? "resources" : "prompts" });
  });
  return () => {
    stopTools();
    stopContent();
  };
}
