/** @module What goes into the change feed of one HTTP endpoint (the server's tool list changes, its resources' and prompts' changes), and what a change from another replica does here. */
import { emitContentChange, onContentChange } from "../content/common.ts";
import type { Registry } from "../server/registry.ts";
import type { ChangeFeed } from "./change-feed.ts";

/** The source of a content change that came from another replica. */
const REMOTE = Object.freeze({ remote: true });

/**
 * Appends every change of the server to the feed: the tool list (addTool, removeTool, upstreams), a
 * resource's `changed()`, a template's list and a provider's prompt list. A change another replica appended
 * (a shared feed) is announced here too, to this process's 2026-07-28 listen streams (legacy GET streams read
 * the feed themselves), without being appended again.
 * @param registry - the server.
 * @param feed - the feed of its GET streams.
 * @returns a function that stops it.
 */
export function feedChanges(registry: Registry, feed: ChangeFeed): () => void {
  let echoing = false;
  const stopTools = registry.onToolsChanged(() => echoing || feed.append({ topic: "tools" }));
  const stopContent = onContentChange((c) => {
    if (echoing || c.source === REMOTE) return;
    if (c.kind === "resource") feed.append({ topic: "resource", uri: c.uri });
    else feed.append({ topic: c.kind === "list" ? "resources" : "prompts" });
  });
  const stopRemote = feed.onEntry((e) => {
    if (!feed.remote?.(e) || e.topic === "session") return;
    echoing = true;
    try {
      if (e.topic === "tools") registry.announceToolsChanged();
      else if (e.topic === "resource") emitContentChange({ kind: "resource", uri: e.uri, source: REMOTE });
      else emitContentChange({ kind: e.topic === "resources" ? "list" : "prompts", source: REMOTE });
    } finally {
      echoing = false;
    }
  });
  return () => {
    stopTools();
    stopContent();
    stopRemote();
  };
}
