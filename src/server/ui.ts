/** @module The MCP Apps extension per request: whether the client declared it, and the version features a request is answered with. */
import { UI_EXTENSION } from "../apps/app.ts";
import { declaresUi } from "../apps/tool-ui.ts";
import { withUi, type VersionFeatures } from "../protocol/versions.ts";
import type { RequestContext } from "./context.ts";

/**
 * Whether this request's client declared `extensions["io.modelcontextprotocol/ui"]` (legacy: in
 * `initialize`; 2026-07-28: in the request's client capabilities) and the server has an app.
 */
export function uiNegotiated(ctx: RequestContext): boolean {
  return ctx.connection.registry.apps.size > 0 && declaresUi(ctx.client.capabilities);
}

/** The features a request is answered with: {@link withUi} of the version's when the extension is negotiated. */
export function requestFeatures(ctx: RequestContext): VersionFeatures {
  return uiNegotiated(ctx) ? withUi(ctx.features) : ctx.features;
}

/**
 * Server capabilities with the extension declared (`extensions["io.modelcontextprotocol/ui"]: {}`) when the
 * server has an app and `declare` says so; otherwise as given.
 */
export function withUiExtension(capabilities: Record<string, unknown>, ctx: RequestContext, declare: boolean): Record<string, unknown> {
  if (!declare || ctx.connection.registry.apps.size === 0) return capabilities;
  const ext = (capabilities.extensions as Record<string, unknown> | undefined) ?? {};
  return { ...capabilities, extensions: { ...ext, [UI_EXTENSION]: {} } };
}
