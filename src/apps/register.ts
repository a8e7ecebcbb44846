/** @module The MCP Apps extension registered with the core: declared in the capabilities a client is answered with. */
import { registerCapability } from "../server/register.ts";
import { installApps } from "./server-state.ts";
import { uiFeatures, uiNegotiated, withUiExtension } from "./ui.ts";

registerCapability({
  name: "apps",
  // The apps it serves (registry.apps), after the tools that link to them.
  server: installApps,
  // `extensions["io.modelcontextprotocol/ui"]`: in server/discover whenever the server has an app (or fronts
  // upstreams); in initialize only when the client declared the extension too.
  // A client that declared the extension gets the tools only a view calls, and results with their `_meta.ui`.
  features: uiFeatures,
  project: (caps, ctx) => withUiExtension(caps, ctx, ctx.method === "server/discover" || uiNegotiated(ctx)),
});
