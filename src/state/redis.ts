/** @module redisStore(): the Store kept in Redis through Bun's built-in RedisClient, for several processes that share state. */
import { CLAIM, TAKE } from "./redis-scripts.ts";
import type { Store } from "../shared/store.ts";

/** A key prefix as a SCAN MATCH pattern: glob characters escaped, then `*`. */
function matchPrefix(prefix: string): string {
  return prefix.replace(/[*?[\]\\]/g, (c) => "\\" + c) + "*";
}

/** How long one command may take before it fails (Bun's client queues commands while Redis is away), ms. */
export const REDIS_TIMEOUT_MS = 2000;

/** A Redis command that failed or did not answer in time: says which server and why. */
export class StoreUnavailableError extends Error {
  readonly code = "STORE_UNAVAILABLE";
  constructor(message: string) {
    super(message);
    this.name = "StoreUnavailableError";
  }
}

/**
 * One Redis command's answer, or a {@link StoreUnavailableError} when it fails or takes longer than `limit`.
 * @param work - the command.
 * @param url - the server's URL, for the message (a password in it is left out).
 * @param what - the command, for the message.
 * @param limit - ms.
 * @returns its answer.
 */
export function withinLimit<T>(work: Promise<T>, url: string | undefined, what: string, limit: number): Promise<T> {
  const where = (url ?? "redis").replace(/\/\/[^@/]*@/, "//");
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StoreUnavailableError(`${where} did not answer ${what} within ${limit} ms`)),
      limit,
    );
    work.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(new StoreUnavailableError(`${where}: ${what} failed: ${e?.message ?? e}`))),
    );
  });
}

/**
 * A {@link Store} in Redis (or Valkey) through Bun's built-in `RedisClient` (no dependency): times to live are
 * Redis's own (`SET … PX`), `keys` walks `SCAN … MATCH`, `incr` is Redis's `INCR`, `take` and `claim` are Lua
 * scripts on Redis's clock (src/state/redis-scripts.ts). Values are plain strings. A command that fails, or gets no
 * answer within `timeoutMs` (Redis down or unreachable: Bun's client would wait for it to come back), rejects
 * with a {@link StoreUnavailableError}.
 * @param url - the server's URL (`redis://host:port[/db]`); absent: `REDIS_URL`/`VALKEY_URL`, else localhost.
 * @param o - `timeoutMs`: the time limit of one command (default {@link REDIS_TIMEOUT_MS}).
 * @returns the store; `close()` closes its connection.
 */
export function redisStore(url?: string, o?: { timeoutMs?: number }): Store {
  const client = new Bun.RedisClient(url);
  const limit = o?.timeoutMs ?? REDIS_TIMEOUT_MS;
  const run = <T>(what: string, work: () => Promise<T>): Promise<T> => withinLimit(work(), url, what, limit);
  return {
    get: (key) => run("GET", async () => (await client.get(key)) ?? undefined),
    set: (key, value, options) =>
      run("SET", async () => {
        if (options?.ttlMs === undefined) await client.set(key, value);
        else await client.set(key, value, "PX", Math.max(1, Math.ceil(options.ttlMs)));
      }),
    delete: (key) => run("DEL", async () => void (await client.del(key))),
    keys: (prefix) =>
      run("SCAN", async () => {
        const out = new Set<string>();
        let cursor = "0";
        do {
          const [next, batch] = await client.scan(cursor, "MATCH", matchPrefix(prefix), "COUNT", 500);
          for (const k of batch) out.add(k);
          cursor = String(next);
        } while (cursor !== "0");
        return [...out];
      }),
    incr: (key, options) =>
      run("INCR", async () => {
        const n = await client.incr(key);
        if (options?.ttlMs !== undefined) await client.pexpire(key, Math.max(1, Math.ceil(options.ttlMs)));
        return n;
      }),
    take: (key, capacity, perMs) =>
      run("a token bucket (EVAL)", async () =>
        Number(await client.send("EVAL", [TAKE, "1", key, String(capacity), String(perMs)])),
      ),
    claim: (key, member, max, ttlMs) =>
      run("a bounded set (EVAL)", async () => {
        const ttl = String(Math.max(1, Math.ceil(ttlMs)));
        return ((await client.send("EVAL", [CLAIM, "1", key, member, String(max), ttl])) as string[]).map(String);
      }),
    release: (key, member) => run("ZREM", async () => void (await client.send("ZREM", [key, member]))),
    async close() {
      client.close();
    },
  };
}
