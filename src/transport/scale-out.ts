/** @module Scale-out of one HTTP endpoint: with a Redis URL, the change feed and the legacy sessions are shared by every replica (Redis store and pub/sub bus); without, both stay in this process. */
import { redisBus } from "../state/redis-bus.ts";
import { redisStore } from "../state/redis.ts";
import type { Bus, Store } from "../state/types.ts";
import { SharedFeed } from "./shared-feed.ts";
import { SharedSessions } from "./shared-sessions.ts";

/** What the replicas of one server share. */
export interface ScaleOut {
  readonly feed: SharedFeed;
  readonly sessions: SharedSessions;
  /** Resolves once subscribed (the handler waits for it before its first request). */
  readonly ready: Promise<void>;
  close(): void;
}

/**
 * Connects a server's HTTP endpoint to the shared store and bus.
 * @param url - the Redis URL (`redis://host:port[/db]`, `rediss://` for TLS).
 * @param name - the server's name: its keys and channels start with `mcpbin:<name>:`, so servers can share one Redis.
 * @param o - the bounds: feed entries kept, the session idle time.
 * @param parts - a store and bus to use instead of Redis (tests, a user's own).
 * @returns the shared parts.
 */
export function scaleOut(
  url: string,
  name: string,
  o: { eventsTotal: number; sessionIdleMs: number },
  parts?: { store: Store; bus: Bus },
): ScaleOut {
  const store = parts?.store ?? redisStore(url);
  const bus = parts?.bus ?? redisBus(url);
  const origin = crypto.randomUUID().slice(0, 8);
  const prefix = `mcpbin:${name}:`;
  const feed = new SharedFeed(store, bus, prefix, o.eventsTotal, origin);
  const sessions = new SharedSessions(store, bus, prefix, o.sessionIdleMs, origin);
  return {
    feed,
    sessions,
    ready: feed.start(),
    close() {
      feed.close();
      sessions.close();
      if (!parts) {
        void store.close?.();
        void bus.close?.();
      }
    },
  };
}
