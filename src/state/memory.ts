/** @module memoryStore(): the Store kept in this process's memory (the default for tasks), with times to live swept so that memory stays bounded. */
import type { Store } from "../shared/store.ts";

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
  const buckets = new Map<string, { tokens: number; at: number }>();
  const sets = new Map<string, Map<string, number>>();
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
    async take(key, capacity, perMs) {
      const now = performance.now();
      const b = buckets.get(key) ?? { tokens: capacity, at: now };
      b.tokens = Math.min(capacity, b.tokens + (now - b.at) * perMs);
      b.at = now;
      let wait = 0;
      if (b.tokens < 1) wait = Math.max(1, Math.ceil((1 - b.tokens) / perMs));
      else b.tokens -= 1;
      // A full bucket is the same as none: forgotten, so that memory holds only buckets in use.
      if (b.tokens >= capacity) buckets.delete(key);
      else buckets.set(key, b);
      return wait;
    },
    async claim(key, member, max, ttlMs) {
      const now = Date.now();
      const set = sets.get(key) ?? new Map<string, number>();
      for (const [m, at] of set) if (at <= now - ttlMs) set.delete(m);
      set.delete(member);
      set.set(member, now); // a Map keeps insertion order: oldest claim first
      const out: string[] = [];
      for (const m of set.keys()) if (set.size - out.length > max && m !== member) out.push(m);
      for (const m of out) set.delete(m);
      sets.set(key, set);
      return out;
    },
    async release(key, member) {
      const set = sets.get(key);
      set?.delete(member);
      if (set?.size === 0) sets.delete(key);
    },
    async close() {
      if (sweep) clearInterval(sweep);
      map.clear();
      buckets.clear();
      sets.clear();
    },
  };
}
