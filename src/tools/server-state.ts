/** @module What the tools capability keeps on the server (ServerState, src/server/connection.ts): the live tool set's lists, its watchers and its list changes. */
import type { VersionFeatures } from "../protocol/versions.ts";
import type { Connection } from "../server/connection.ts";
import type { Tool } from "./types.ts";

declare module "../server/connection.ts" {
  interface ServerState {
    /** Whether `initialize` advertises `tools.listChanged`. */
    listChanged: boolean;
    /** Why a tool of a name may be missing (added to `Unknown tool`), when the server knows. */
    readonly unknownToolNote?: (name: string) => string | undefined;
    /** Replaces the tool set, naming what changed. */
    replaceTools(next: readonly Tool[]): { added: string[]; removed: string[]; changed: string[] };
    /** A legacy session told `listChanged`, and its end. */
    watch(conn: Connection): void;
    unwatch(conn: Connection): void;
    /** A 2026-07-28 listen stream's callback when the tools change; returns its removal. */
    onToolsChanged(fn: () => void): () => void;
    /** True when some tool is visible only to apps. */
    readonly appOnlyTools: boolean;
    /** Whether some tool declares OAuth `scopes` (its lists differ between callers). */
    readonly scopedTools: boolean;
    /** The tools a version lists. */
    listedTools(f: VersionFeatures): Tool[];
  }
}
