/** @module What the tools capability keeps on the server (ServerState, src/server/connection.ts): the live tool set (src/tools/tool-set.ts), whose members become the server's. */
import type { VersionFeatures } from "../protocol/versions.ts";
import type { Connection, ServerState } from "../server/connection.ts";
import type { ServerOptions } from "../server/options.ts";
import { ToolSet } from "./tool-set.ts";
import type { Tool } from "./types.ts";

declare module "../server/connection.ts" {
  interface ServerState {
    /** Whether `initialize` advertises `tools.listChanged`. */
    listChanged: boolean;
    /** Why a tool of a name may be missing (added to `Unknown tool`), when the server knows. */
    unknownToolNote: ((name: string) => string | undefined) | undefined;
    /** Replaces the tool set, naming what changed. */
    replaceTools(next: readonly Tool[]): { added: string[]; removed: string[]; changed: string[] };
    /** Adds (or replaces) and removes tools as one change, with one notification. */
    changeTools(add: readonly Tool[], remove: readonly string[]): void;
    /** A legacy session told `listChanged`, whether it is, and its end. */
    watch(conn: Connection): void;
    watches(conn: Connection): boolean;
    unwatch(conn: Connection): void;
    /** A 2026-07-28 listen stream's callback when the tools change; returns its removal. */
    onToolsChanged(fn: () => void): () => void;
    /** Tells the listen streams of this process that the tool list changed on another replica. */
    announceToolsChanged(): void;
    /** True when some tool is visible only to apps. */
    readonly appOnlyTools: boolean;
    /** Whether some tool declares OAuth `scopes` (its lists differ between callers). */
    readonly scopedTools: boolean;
    /** The tools a version lists. */
    listedTools(f: VersionFeatures): Tool[];
  }
}

/** The tool set's methods the server answers for it (`registry.addTool(t)` is the set's). */
const METHODS = [
  "addTool",
  "removeTool",
  "enableTool",
  "replaceTools",
  "changeTools",
  "watch",
  "watches",
  "unwatch",
  "onToolsChanged",
  "announceToolsChanged",
  "listedTools",
] as const satisfies readonly (keyof ServerState & keyof ToolSet)[];

/** Its fields and getters, read (and, for the first two, written) through the server. */
const FIELDS = [
  "listChanged",
  "unknownToolNote",
  "appOnlyTools",
  "scopedTools",
] as const satisfies readonly (keyof ServerState & keyof ToolSet)[];

/**
 * Gives a server its tool set (the tools capability's `server` hook, src/tools/register.ts): `registry.tools`,
 * `registry.addTool()`, … are the set's from then on.
 * @param registry - the server being made.
 * @param options - its options (`tools`, `listChanged`).
 * @throws ToolDefinitionError on a value that is not a tool, or two tools with one name.
 */
export function installToolSet(registry: ServerState, options: ServerOptions): void {
  const set = new ToolSet(options);
  const props: PropertyDescriptorMap = { tools: { value: set.tools, enumerable: true } };
  for (const m of METHODS) props[m] = { value: (set[m] as (...a: unknown[]) => unknown).bind(set), writable: true };
  for (const f of FIELDS)
    props[f] = {
      get: () => set[f],
      set: (v: never) => void ((set as unknown as Record<string, unknown>)[f] = v),
      enumerable: true,
    };
  Object.defineProperties(registry, props);
}
