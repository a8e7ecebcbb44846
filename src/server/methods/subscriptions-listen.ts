/** @module subscriptions/listen (2026-07-28): a long-lived request whose stream carries the change notifications the client opted in to (MCP 2026-07-28 basic/subscriptions). */
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { META } from "../../protocol/meta.ts";
import type { MethodSpec } from "../method.ts";
import { listenRegistered } from "../register.ts";
import { lazySchema } from "../../runtime/once.ts";

/** The most resource URIs one listen stream may name (and one connection subscribe to): memory stays bounded. */
export const MAX_SUBSCRIPTIONS = 1000;

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
 * the server honours: each registered capability says what it honours and delivers it (src/server/register.ts
 * `listen`: the tool list when the tool set is live, the resource list only when it can change, only URIs the
 * server serves, …). The request stays open until the client cancels it (or closes the stream); on shutdown it
 * ends with its result.
 */
export const subscriptionsListen: MethodSpec<ListenParams, Record<string, unknown>> = {
  name: "subscriptions/listen",
  eras: ["modern"],
  longLived: true,
  waitsForUpstreams: true,
  params,
  handle(p, ctx) {
    const id = ctx.requestId;
    const listening = listenRegistered(p.notifications, ctx);
    ctx.notify("notifications/subscriptions/acknowledged", {
      notifications: listening.honoured,
      _meta: { [META.subscriptionId]: id },
    });
    return new Promise<Record<string, unknown>>((resolve) => {
      // Cancelled (stdio notifications/cancelled, HTTP stream closed): no answer; aborted by shutdown: aborted() answers.
      ctx.signal.addEventListener(
        "abort",
        () => {
          listening.close();
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
