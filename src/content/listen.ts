/** @module What the content capability delivers on a 2026-07-28 `subscriptions/listen` stream (MCP 2026-07-28 basic/subscriptions): resource and prompt list changes and resource updates. */
import type { RequestContext } from "../server/context.ts";
import type { Listening } from "../server/register.ts";
import { subscriptionsOf, type ListenFilter } from "./subscriptions.ts";

/**
 * Opens the content part of a listen stream: the resource list only when it can change (a template lists
 * resources, or a provider's can change), the prompt list only when a provider's can, and only the URIs the
 * server serves (a provider's, an upstream's, subscribed upstream while the stream is open).
 * @param asked - the request's `notifications`.
 * @param ctx - the `subscriptions/listen` request.
 * @returns what it honours and how to stop; undefined when it honours nothing.
 */
export function listenContent(asked: Readonly<Record<string, unknown>>, ctx: RequestContext): Listening | undefined {
  const c = ctx.connection.registry.content;
  const honoured: { resourcesListChanged?: boolean; promptsListChanged?: boolean; resourceSubscriptions?: string[] } =
    {};
  if (asked.resourcesListChanged === true && c.listChanges) honoured.resourcesListChanged = true;
  if (asked.promptsListChanged === true && c.promptListChanges) honoured.promptsListChanged = true;
  const uris = asked.resourceSubscriptions as readonly string[] | undefined;
  if (uris !== undefined && c.hasResources) {
    honoured.resourceSubscriptions = [...new Set(uris)].filter(
      (uri) => c.find(uri) !== undefined || c.providerOf(uri)?.serves.subscribe === true,
    );
  }
  if (Object.keys(honoured).length === 0) return undefined;
  const upstream = (honoured.resourceSubscriptions ?? []).flatMap((uri) => {
    const x = c.providerOf(uri);
    return x ? [[x, uri] as const] : [];
  });
  for (const [x, uri] of upstream) x.subscribe(uri);
  const closeContent = subscriptionsOf.get(ctx.connection).open(ctx.requestId, honoured as ListenFilter);
  return {
    honoured,
    close() {
      for (const [x, uri] of upstream) x.unsubscribe(uri);
      closeContent();
    },
  };
}
