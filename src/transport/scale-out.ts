/** @module Scale-out of one HTTP endpoint: with a Redis URL, the change feed, the legacy sessions and the middleware's counters are shared by every replica (Redis store and pub/sub bus); without, all stay in this process. */
import { redisBus } from "../state/redis-bus.ts";
import { redisStore } from "../state/redis.ts";
import { shareState } from "../state/shared.ts";
import type { Bus, Store } from "../shared/store.ts";
import { SharedFeed } from "./shared-feed.ts";
import { SharedSessions } from "./shared-sessions.ts";
import { SharedPostStreams } from "./shared-post-streams.ts";

/** What the replicas of one server share. */
export interface ScaleOut {
  readonly feed: SharedFeed;
  readonly sessions: SharedSessions;
  /** Legacy POST streams resumed on a replica other than the one running the call. */
  readonly posts: SharedPostStreams;
  /** Resolves once subscribed (the handler waits for it before its first request). */
  readonly ready: Promise<void>;
  close(): void;
}

/**
 * Connects a server's HTTP endpoint to the shared store and bus.
 * @param url - the Redis URL (`redis://host:port[/db]`, `rediss://` for TLS).
 * @param name - the server's name: its keys and channels start with `mcpbin:<name>:`, so servers can share one Redis.
 * @param o - the bounds: feed entries kept, the session idle time, sessions per client across replicas.
 * @param parts - a store and bus to use instead of Redis (tests, a user's own).
 * @param server - the server's state: its middleware (rateLimit, cacheResults) counts in the store until `close()`.
 * @returns the shared parts.
 */
export function scaleOut(
  url: string,
  name: string,
  o: { eventsTotal: number; sessionIdleMs: number; maxSessionsPerClient?: number },
  parts?: { store: Store; bus: Bus },
  server?: object,
): ScaleOut {
  const store = parts?.store ?? redisStore(url);
  const bus = parts?.bus ?? redisBus(url);
  const origin = crypto.randomUUID().slice(0, 8);
  const prefix = `mcpbin:${name}:`;
  const feed = new SharedFeed(store, bus, prefix, o.eventsTotal, origin);
  if (server) shareState(server, { store, prefix });
  const posts = new SharedPostStreams(bus, prefix);
  const sessions = new SharedSessions(store, bus, prefix, o.sessionIdleMs, origin, o.maxSessionsPerClient);
  return {
    feed,
    sessions,
    posts,
    ready: feed.start(),
    close() {
      if (server) shareState(server, undefined);
      feed.close();
      sessions.close();
      posts.close();
      if (!parts) {
        void store.close?.();
        void bus.close?.();
      }
    },
  };
}
