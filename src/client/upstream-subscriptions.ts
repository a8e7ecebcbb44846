/** @module Subscriptions to upstreams' resources and their list changes: one upstream subscription per URI whatever the number of sessions subscribed, a listen stream for a 2026-07-28 upstream. */
import { OutboundError } from "../server/outbound.ts";
import type { JsonObject, McpClient } from "./client.ts";
import { caps, type ContentUpstream } from "./upstream-content-kit.ts";
import { logName } from "../runtime/log-name.ts";

/**
 * The resource subscriptions of the gateway's sessions, counted per URI: the first subscriber subscribes
 * upstream (`resources/subscribe`, or a `subscriptions/listen` stream from a 2026-07-28 upstream), the last
 * to leave unsubscribes.
 * @param upstreamOf - the upstream a URI of ours leads to, and its URI there.
 * @param left - reports on stderr what failed (a subscription).
 * @returns `subscribe` and `unsubscribe` for the content provider.
 */
export function upstreamSubscriptions(
  upstreamOf: (uri: string) => { u: ContentUpstream; uri: string } | undefined,
  left: (u: ContentUpstream, what: string) => (e: unknown) => unknown,
): { subscribe(uri: string): void; unsubscribe(uri: string): void } {
  const subscribers = new Map<string, number>();
  /** 2026-07-28 upstreams: one listen stream per URI subscribed. */
  const listens = new Map<string, AbortController>();
  return {
    subscribe(uri: string): void {
      const n = (subscribers.get(uri) ?? 0) + 1;
      subscribers.set(uri, n);
      const to = upstreamOf(uri);
      if (n !== 1 || !to || caps(to.u, "resources")?.subscribe !== true) return;
      void to.u
        .connect()
        .then((c) => {
          if (c.era === "legacy") return c.request("resources/subscribe", { uri: to.uri });
          // A 2026-07-28 upstream: a listen stream for this URI, open until the last subscriber leaves.
          const ac = new AbortController();
          listens.set(uri, ac);
          return c
            .request(
              "subscriptions/listen",
              { notifications: { resourceSubscriptions: [to.uri] } },
              { signal: ac.signal, timeoutMs: 0 },
            )
            .catch((e: unknown) => {
              if (!ac.signal.aborted) throw e;
            });
        })
        .catch(left(to.u, `the subscription to ${to.uri}`));
    },
    unsubscribe(uri: string): void {
      const n = (subscribers.get(uri) ?? 0) - 1;
      if (n > 0) return void subscribers.set(uri, n);
      subscribers.delete(uri);
      listens.get(uri)?.abort();
      listens.delete(uri);
      const to = upstreamOf(uri);
      if (!to || caps(to.u, "resources")?.subscribe !== true) return;
      void to.u
        .connect()
        .then((c) => (c.era === "legacy" ? c.request("resources/unsubscribe", { uri: to.uri }) : undefined))
        .catch(() => {});
    },
  };
}

/**
 * A connection to an upstream is up: a 2026-07-28 upstream that advertises `resources.listChanged` or
 * `prompts.listChanged` sends those only on a `subscriptions/listen` stream, so one is opened for them, open
 * as long as the connection (a legacy upstream sends them on its session anyway).
 * @param server - the upstream's name (in stderr lines).
 * @param client - its connection.
 */
export function followListChanges(server: string, client: McpClient): void {
  const c = client.serverCapabilities;
  const resourcesListChanged = (c.resources as JsonObject | undefined)?.listChanged === true;
  const promptsListChanged = (c.prompts as JsonObject | undefined)?.listChanged === true;
  if (client.era !== "modern" || !(resourcesListChanged || promptsListChanged)) return;
  const notifications = {
    ...(resourcesListChanged ? { resourcesListChanged } : {}),
    ...(promptsListChanged ? { promptsListChanged } : {}),
  };
  // Ends with the connection (the request then fails "closed", which is its normal end).
  client.request("subscriptions/listen", { notifications }, { timeoutMs: 0 }).catch((e: unknown) => {
    if (!(e instanceof OutboundError && e.code === "closed"))
      process.stderr.write(
        `${logName()}: upstream "${server}": its list changes are not followed: ${(e as Error).message}\n`,
      );
  });
}
