/** @module The shared change feed when its store fails: an entry it cannot read is skipped, and the entries after it are still delivered in order (a failure used to stop the replica's feed for good). */
import { expect, test } from "bun:test";
import { memoryBus } from "../../src/state/bus.ts";
import { memoryStore } from "../../src/state/memory.ts";
import type { Store } from "../../src/shared/store.ts";
import { SharedFeed } from "../../src/transport/shared-feed.ts";

test("an entry whose predecessor cannot be read (the store fails) is delivered, and so are the next ones", async () => {
  const inner = memoryStore();
  let failing = false;
  const store: Store = {
    ...inner,
    get: (key) => (failing ? Promise.reject(new Error("store down")) : inner.get(key)),
  };
  const bus = memoryBus();
  const feed = new SharedFeed(store, bus, "t:", 100, "here");
  await feed.start();
  const got: number[] = [];
  feed.onEntry((e) => got.push(e.seq));
  const publish = (seq: number) => bus.publish("t:feed", JSON.stringify({ topic: "tools", seq, origin: "elsewhere" }));
  failing = true; // entry 1 never reached the store (its replica lost Redis), and reading it fails
  await publish(2);
  await Bun.sleep(100);
  failing = false;
  await publish(3);
  for (let i = 0; i < 50 && got.length < 2; i++) await Bun.sleep(20);
  expect(got).toEqual([2, 3]);
  feed.close();
});
