/** @module What the apps capability keeps on the server (ServerState, src/server/connection.ts): the MCP Apps it serves, whose views the catalog serves as `ui://` resources. */
import { addResourceSource } from "../content/server-state.ts";
import type { ServerState } from "../server/connection.ts";
import type { ServerOptions } from "../server/options.ts";
import type { App } from "./app.ts";
import { appResource } from "./resource.ts";
import { appsOfServer } from "./tool-ui.ts";

declare module "../server/connection.ts" {
  interface ServerState {
    /** The MCP Apps it serves (`serve({ apps })` and those its tools link to), by URI. */
    readonly apps: ReadonlyMap<string, App>;
  }
}

/**
 * Gives a server its apps (the apps capability's `server` hook, src/apps/register.ts), after its tools.
 * @throws AppDefinitionError on two apps with one URI, or a tool linking to an app that is not served.
 */
export function installApps(registry: ServerState, options: ServerOptions): void {
  Object.defineProperty(registry, "apps", { value: appsOfServer(options), enumerable: true });
}

addResourceSource((registry) => [...registry.apps.values()].map(appResource));
