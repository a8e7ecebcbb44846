/** @module What the apps capability keeps on the server (ServerState, src/server/connection.ts): the MCP Apps it serves. */
import type { App } from "./app.ts";

declare module "../server/connection.ts" {
  interface ServerState {
    /** The MCP Apps it serves, by URI. */
    readonly apps: ReadonlyMap<string, App>;
  }
}
