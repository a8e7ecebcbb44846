/** @module The MCP Apps extension per request: whether the client declared it, and the version features a request is answered with. */
import { UI_EXTENSION } from "./app.ts";
import { declaresUi } from "./tool-ui.ts";
import { withUi, type VersionFeatures } from "../protocol/versions.ts";
import type { RequestContext, ServerState } from "../server/context.ts";

/**
 * Whether the server takes part in the extension: it has an app, or it fronts upstreams (whose views it relays).
 * A program that registers only the tools capability (a live session, src/sessions/session.ts) has no apps.
 */
function hasUi(ctx: RequestContext): boolean {
  const r = ctx.connection.registry;
  const apps = r.apps as ServerState["apps"] | undefined;
  return (apps !== undefined && apps.size > 0) || r.options.upstreams !== undefined;
}

/**
 * Whether this request's client declared `extensions["io.modelcontextprotocol/ui"]` (legacy: in
 * `initialize`; 2026-07-28: in the request's client capabilities) and the server has an app or fronts upstreams.
 */
export function uiNegotiated(ctx: RequestContext): boolean {
  return hasUi(ctx) && declaresUi(ctx.client.capabilities);
}

/**
 * The features a request is answered with (the apps capability's `features`, src/apps/register.ts): {@link withUi}
 * of the version's when the extension is negotiated.
 */
export function uiFeatures(f: VersionFeatures, ctx: RequestContext): VersionFeatures {
  return uiNegotiated(ctx) ? withUi(f) : f;
}

/**
 * Server capabilities with the extension declared (`extensions["io.modelcontextprotocol/ui"]: {}`) when the
 * server has an app (or fronts upstreams) and `declare` says so; otherwise as given.
 */
export function withUiExtension(
  capabilities: Record<string, unknown>,
  ctx: RequestContext,
  declare: boolean,
): Record<string, unknown> {
  if (!declare || !hasUi(ctx)) return capabilities;
  const ext = (capabilities.extensions as Record<string, unknown> | undefined) ?? {};
  return { ...capabilities, extensions: { ...ext, [UI_EXTENSION]: {} } };
}
