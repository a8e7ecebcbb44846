/** @module What the content capability keeps on the server (ServerState, src/server/connection.ts): its catalog of resources, resource templates and prompts. */
import type { Catalog } from "./catalog.ts";

declare module "../server/connection.ts" {
  interface ServerState {
    /** Its resources, resource templates and prompts. */
    readonly content: Catalog;
  }
}
