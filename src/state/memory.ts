/** @module memoryStore(): the Store kept in this process's memory (the default for tasks), with times to live swept so that memory stays bounded. */
import type { Store } from "./types.ts";

interface Entry {
  value: string;
  /** Epoch milliseconds after which the entry is gone; Infinity: no time to live. */
  expires: number;
}

/** How often expired entries are swept out (ms); reads also drop an expired entry at once. */
const SWEEP_MS = 30_000;

/**
 * A {@link Store} in this process's memory: lost when the process ends, shared by nothing else. Expired
 * entries are dropped when read and swept out every 30 s (an unref'd timer, so it never keeps a process alive).
 * @returns the store; `close()` stops the sweep and empties it.
 */
export function memoryStore(): Store {
  const map = new Map<string, Entry>();
  let sweep: ReturnType<typeof setInterval> | undefined;
  const live = (key: string, now = Date.now()): Entry | undefined => {
    const e = map.get(key);
    if (e && e.expires <= now) {
      map.delete(key);
      return undefined;
    }
    return e;
  };
  const expiry = (ttlMs: number | undefined): number => {
    if (ttlMs === undefined) return Infinity;
    if (!sweep) {
      sweep = setInterval(() => {
        const now = Date.now();
        for (const [k, e] of map) if (e.expires <= now) map.delete(k);
      }, SWEEP_MS);
      sweep.unref?.();
    }
    return Date.now() + Math.max(0, ttlMs);
  };
  return {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, options) {
      map.set(key, { value, expires: expiry(options?.ttlMs) });
    },
    async delete(key) {
      map.delete(key);
    },
    async keys(prefix) {
      const now = Date.now();
      const out: string[] = [];
      for (const k of map.keys()) if (k.startsWith(prefix) && live(k, now)) out.push(k);
      return out;
    },
    async incr(key, options) {
      const n = Number(live(key)?.value ?? 0) + 1;
      const prev = map.get(key);
      map.set(key, {
        value: String(n),
        expires: options?.ttlMs === undefined ? (prev?.expires ?? Infinity) : expiry(options.ttlMs),
      });
      return n;
    },
    async close() {
      if (sweep) clearInterval(sweep);
      map.clear();
    },
  };
}
