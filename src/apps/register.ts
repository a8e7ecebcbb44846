/** @module The MCP Apps extension registered with the core: declared in the capabilities a client is answered with. */
import { registerCapability } from "../server/register.ts";
import { installApps } from "./server-state.ts";
import { uiNegotiated, withUiExtension } from "./ui.ts";

registerCapability({
  name: "apps",
  // The apps it serves (registry.apps), after the tools that link to them.
  server: installApps,
  // `extensions["io.modelcontextprotocol/ui"]`: in server/discover whenever the server has an app (or fronts
  // upstreams); in initialize only when the client declared the extension too.
  project: (caps, ctx) => withUiExtension(caps, ctx, ctx.method === "server/discover" || uiNegotiated(ctx)),
});
