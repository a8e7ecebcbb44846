/** @module The three Stores (memory, file, Redis on a real redis-server) against one contract: values, times to live, keys by prefix, incr; the token buckets and bounded sets of the memory and Redis stores (take, claim, release). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileStore } from "../../src/state/file.ts";
import { memoryStore } from "../../src/state/memory.ts";
import { redisStore, StoreUnavailableError } from "../../src/state/redis.ts";
import type { Store } from "../../src/shared/store.ts";
import { startRedis, type RedisServer } from "../helpers/redis.ts";

let redis: RedisServer;
let dir: string;
beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), "mcpbin-store-"));
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const kinds: [string, () => Store][] = [
  ["memory", () => memoryStore()],
  ["file", () => fileStore(join(dir, String(Math.random()).slice(2)))],
  ["redis", () => redisStore(redis.url)],
];

describe.each(kinds)("%s store", (_name, make) => {
  test("get/set/delete, keys by prefix (glob characters are literal), incr", async () => {
    const s = make();
    const p = `t${Math.random().toString(36).slice(2)}:`;
    expect(await s.get(p + "a")).toBeUndefined();
    await s.set(p + "a", '{"x":1}');
    await s.set(p + "b*", "two");
    await s.set(p + "../c", "three");
    await s.set("other:" + p, "no");
    expect(await s.get(p + "a")).toBe('{"x":1}');
    expect((await s.keys(p)).sort()).toEqual([p + "../c", p + "a", p + "b*"]);
    expect(await s.keys(p + "b*")).toEqual([p + "b*"]);
    await s.delete(p + "a");
    await s.delete(p + "never");
    expect(await s.get(p + "a")).toBeUndefined();
    const counts = await Promise.all(Array.from({ length: 20 }, () => s.incr(p + "n")));
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await s.close?.();
  });

  test("a time to live ends a key (get and keys)", async () => {
    const s = make();
    const p = `ttl${Math.random().toString(36).slice(2)}:`;
    await s.set(p + "short", "x", { ttlMs: 60 });
    await s.set(p + "long", "y", { ttlMs: 60_000 });
    expect(await s.incr(p + "n", { ttlMs: 60 })).toBe(1);
    expect(await s.get(p + "short")).toBe("x");
    await Bun.sleep(150);
    expect(await s.get(p + "short")).toBeUndefined();
    expect(await s.get(p + "n")).toBeUndefined();
    expect(await s.keys(p)).toEqual([p + "long"]);
    await s.close?.();
  });
});

describe.each(kinds.filter(([name]) => name !== "file"))("%s store: shared counters", (_name, make) => {
  test("take: a bucket of 3 starts full, refuses the 4th with the wait until the next token, refills", async () => {
    const s = make();
    const key = `tb${Math.random().toString(36).slice(2)}`;
    const perMs = 1 / 200; // one token every 200 ms
    const waits = await Promise.all(Array.from({ length: 5 }, () => s.take!(key, 3, perMs)));
    expect(waits.filter((w) => w === 0).length).toBe(3);
    for (const w of waits.filter((w) => w > 0)) (expect(w).toBeGreaterThan(100), expect(w).toBeLessThanOrEqual(200));
    await Bun.sleep(250);
    expect(await s.take!(key, 3, perMs)).toBe(0);
    expect(await s.take!(key, 3, perMs)).toBeGreaterThan(0);
    await s.close?.();
  });

  test("claim: at most max members, the least recently claimed removed first; release; members expire", async () => {
    const s = make();
    const key = `set${Math.random().toString(36).slice(2)}`;
    expect(await s.claim!(key, "a", 2, 60_000)).toEqual([]);
    await Bun.sleep(5);
    expect(await s.claim!(key, "b", 2, 60_000)).toEqual([]);
    await Bun.sleep(5);
    expect(await s.claim!(key, "c", 2, 60_000)).toEqual(["a"]);
    await Bun.sleep(5);
    expect(await s.claim!(key, "b", 2, 60_000)).toEqual([]); // touched: now c is the oldest
    await Bun.sleep(5);
    expect(await s.claim!(key, "d", 2, 60_000)).toEqual(["c"]);
    await s.release!(key, "d");
    await s.release!(key, "never");
    expect(await s.claim!(key, "e", 2, 60_000)).toEqual([]);
    const short = `${key}:ttl`;
    await s.claim!(short, "old", 1, 50);
    await Bun.sleep(120);
    expect(await s.claim!(short, "new", 1, 50)).toEqual([]); // "old" expired: nothing to remove
    await s.close?.();
  });
});

test("redis store: a Redis that does not answer fails each command after its time limit, naming the server", async () => {
  const s = redisStore("redis://:secret@127.0.0.1:1", { timeoutMs: 300 });
  const t = performance.now();
  const e = await s.get("k").catch((e) => e);
  expect(e).toBeInstanceOf(StoreUnavailableError);
  expect(e.message).toContain("redis://127.0.0.1:1 did not answer GET within 300 ms");
  expect(performance.now() - t).toBeLessThan(1000);
  await s.close?.();
});

test("file store: one file per key, no temporary file left, a key cannot name a path outside the directory", async () => {
  const d = join(dir, "layout");
  const s = fileStore(d);
  await s.set("../../escape", "x");
  await s.set("task:abc", "y");
  const names = readdirSync(d).sort();
  expect(names).toHaveLength(2);
  for (const n of names) expect(n.startsWith("k-") && !n.includes("/") && !n.includes(".")).toBe(true);
  expect(await fileStore(d).get("task:abc")).toBe("y");
});
