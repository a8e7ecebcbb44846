/** @module redisBus(): the Bus over Redis pub/sub through Bun's built-in RedisClient, so that a change on one replica reaches the clients of every replica. */
import { logLine } from "../runtime/log-name.ts";
import type { Bus } from "../shared/store.ts";
import { REDIS_TIMEOUT_MS, withinLimit } from "./redis.ts";

/**
 * A {@link Bus} over Redis (or Valkey) `PUBLISH`/`SUBSCRIBE`, with Bun's `RedisClient` (no dependency): one
 * connection publishes, a second one (opened on the first subscription) listens, as Redis requires.
 * Redis delivers a channel's messages in the order they were published; it keeps none for a subscriber
 * that was away (what must not be missed is also written to the store: src/transport/shared-feed.ts).
 * @param url - the server's URL (`redis://host:port[/db]`); absent: `REDIS_URL`/`VALKEY_URL`, else localhost.
 * A publish that gets no answer within {@link REDIS_TIMEOUT_MS} (Redis down) rejects with a `StoreUnavailableError`.
 * @returns the bus; `close()` closes both connections.
 */
export function redisBus(url?: string): Bus {
  const pub = new Bun.RedisClient(url);
  let sub: Bun.RedisClient | undefined;
  const listeners = new Map<string, Set<(message: string) => void>>();
  return {
    async publish(channel, message) {
      await withinLimit(pub.publish(channel, message), url, "PUBLISH", REDIS_TIMEOUT_MS);
    },
    async subscribe(channel, onMessage) {
      sub ??= new Bun.RedisClient(url);
      let set = listeners.get(channel);
      const fn = (m: string) => {
        try {
          onMessage(m);
        } catch (e) {
          logLine(`a bus subscriber failed: ${(e as Error)?.message ?? e}`);
        }
      };
      if (!set) {
        listeners.set(channel, (set = new Set([fn])));
        const all = set;
        await sub.subscribe(channel, (message) => {
          for (const f of [...all]) f(message);
        });
      } else set.add(fn);
      return async () => {
        set.delete(fn);
        if (set.size === 0 && listeners.get(channel) === set) {
          listeners.delete(channel);
          await sub?.unsubscribe(channel).catch(() => {});
        }
      };
    },
    async close() {
      pub.close();
      sub?.close();
    },
  };
}
