/** @module subscriptions/listen (2026-07-28): a long-lived request whose stream carries the change notifications the client opted in to (MCP 2026-07-28 basic/subscriptions). */
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { META } from "../../protocol/meta.ts";
import { MAX_SUBSCRIPTIONS, type ListenFilter } from "../subscriptions.ts";
import type { MethodSpec } from "../method.ts";
import { lazySchema } from "../../runtime/once.ts";

/** The checked params of a `subscriptions/listen`. */
export interface ListenParams {
  readonly notifications: {
    readonly toolsListChanged?: boolean;
    readonly promptsListChanged?: boolean;
    readonly resourcesListChanged?: boolean;
    readonly resourceSubscriptions?: readonly string[];
  };
}

const params = lazySchema(() =>
  wireObject(
    {
      notifications: wireObject(
        {
          toolsListChanged: v.optional(v.boolean()),
          promptsListChanged: v.optional(v.boolean()),
          resourcesListChanged: v.optional(v.boolean()),
          resourceSubscriptions: v.optional(
            v.pipe(
              v.array(v.string()),
              v.maxLength(MAX_SUBSCRIPTIONS, `Invalid params: at most ${MAX_SUBSCRIPTIONS} resourceSubscriptions`),
            ),
          ),
        },
        "Invalid params: notifications must be an object",
      ),
    },
    "Invalid params: subscriptions/listen needs params {notifications}",
  ),
) as v.GenericSchema<unknown, ListenParams>;

/**
 * The `subscriptions/listen` entry. First `notifications/subscriptions/acknowledged`, echoing only what
 * the server honours: the tool list when the tool set is live (src/serve/create-server.ts), never the prompt list, the resource list only when a template
 * lists resources, and only URIs it serves. The request stays open until the client cancels it (or
 * closes the stream); on shutdown it ends with its result.
 */
export const subscriptionsListen: MethodSpec<ListenParams, Record<string, unknown>> = {
  name: "subscriptions/listen",
  eras: ["modern"],
  params,
  handle(p, ctx) {
    const c = ctx.connection.registry.content;
    const n = p.notifications;
    const registry = ctx.connection.registry;
    const honoured: {
      toolsListChanged?: boolean;
      promptsListChanged?: boolean;
      resourcesListChanged?: boolean;
      resourceSubscriptions?: string[];
    } = {};
    // A live tool set (createServer's listChanged, or changed already) tells the stream of each change.
    if (n.toolsListChanged === true && registry.listChanged) honoured.toolsListChanged = true;
    if (n.resourcesListChanged === true && c.listChanges) honoured.resourcesListChanged = true;
    if (n.promptsListChanged === true && c.promptListChanges) honoured.promptsListChanged = true;
    if (n.resourceSubscriptions !== undefined && c.hasResources) {
      honoured.resourceSubscriptions = [...new Set(n.resourceSubscriptions)].filter(
        (uri) => c.find(uri) !== undefined || c.providerOf(uri)?.serves.subscribe === true,
      );
    }
    // A provider's resources (an upstream's) are subscribed upstream while the stream is open.
    const upstream = (honoured.resourceSubscriptions ?? []).flatMap((uri) => {
      const x = c.providerOf(uri);
      return x ? [[x, uri] as const] : [];
    });
    for (const [x, uri] of upstream) x.subscribe(uri);
    const id = ctx.requestId;
    ctx.notify("notifications/subscriptions/acknowledged", {
      notifications: honoured,
      _meta: { [META.subscriptionId]: id },
    });
    const closeContent = ctx.connection.subscriptions.open(id, honoured as ListenFilter);
    const stopTools = honoured.toolsListChanged
      ? registry.onToolsChanged(() =>
          ctx.notify("notifications/tools/list_changed", { _meta: { [META.subscriptionId]: id } }),
        )
      : undefined;
    const close = () => {
      for (const [x, uri] of upstream) x.unsubscribe(uri);
      closeContent();
      stopTools?.();
    };
    return new Promise<Record<string, unknown>>((resolve) => {
      // Cancelled (stdio notifications/cancelled, HTTP stream closed): no answer; aborted by shutdown: aborted() answers.
      ctx.signal.addEventListener(
        "abort",
        () => {
          close();
          resolve(ended(id));
        },
        { once: true },
      );
    });
  },
  aborted(_reason, ctx) {
    return ended(ctx.requestId);
  },
};

function ended(id: unknown): Record<string, unknown> {
  return { _meta: { [META.subscriptionId]: id } };
}
