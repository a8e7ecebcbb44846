/** @module redisStore(): the Store kept in Redis through Bun's built-in RedisClient, for several processes that share state. */
import type { Store } from "./types.ts";

/** A key prefix as a SCAN MATCH pattern: glob characters escaped, then `*`. */
function matchPrefix(prefix: string): string {
  return prefix.replace(/[*?[\]\\]/g, (c) => "\\" + c) + "*";
}

/**
 * A {@link Store} in Redis (or Valkey) through Bun's built-in `RedisClient` (no dependency): times to live are
 * Redis's own (`SET … PX`), `keys` walks `SCAN … MATCH`, `incr` is Redis's `INCR`. Values are plain strings.
 * @param url - the server's URL (`redis://host:port[/db]`); absent: `REDIS_URL`/`VALKEY_URL`, else localhost.
 * @returns the store; `close()` closes its connection.
 */
export function redisStore(url?: string): Store {
  const client = new Bun.RedisClient(url);
  return {
    async get(key) {
      return (await client.get(key)) ?? undefined;
    },
    async set(key, value, options) {
      if (options?.ttlMs === undefined) await client.set(key, value);
      else await client.set(key, value, "PX", Math.max(1, Math.ceil(options.ttlMs)));
    },
    async delete(key) {
      await client.del(key);
    },
    async keys(prefix) {
      const out = new Set<string>();
      let cursor = "0";
      do {
        const [next, batch] = await client.scan(cursor, "MATCH", matchPrefix(prefix), "COUNT", 500);
        for (const k of batch) out.add(k);
        cursor = String(next);
      } while (cursor !== "0");
      return [...out];
    },
    async incr(key, options) {
      const n = await client.incr(key);
      if (options?.ttlMs !== undefined) await client.pexpire(key, Math.max(1, Math.ceil(options.ttlMs)));
      return n;
    },
    async close() {
      client.close();
    },
  };
}
