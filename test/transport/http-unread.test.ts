// Admission under the unread-answers bound (src/transport/http-unread.ts): what is being made counts, by kind of request.
import { expect, test } from "bun:test";
import { UnreadAnswers } from "../../src/transport/http-unread.ts";

const MiB = 1 << 20;
/** Settles within `ms`, or says it is still waiting. */
const within = <T>(p: Promise<T>, ms = 50) =>
  Promise.race([p.then(() => "started"), Bun.sleep(ms).then(() => "waiting")]);

test("of a kind not answered yet one request is made at a time, the next after its answer (or 200 ms)", async () => {
  const u = new UnreadAnswers(0, 64 * MiB);
  const leave1 = await u.enter("tools/call slow");
  const second = u.enter("tools/call slow");
  expect(await within(second)).toBe("waiting");
  expect(await within(u.enter("tools/list"))).toBe("started"); // another kind is not held back
  u.made("tools/call slow", 100);
  leave1();
  expect(await within(second)).toBe("started");
  const third = u.enter("tools/call other");
  const fourth = u.enter("tools/call other");
  expect(await within(third)).toBe("started");
  expect(await within(fourth, 300)).toBe("started"); // a slow call holds its kind back 200 ms at most
});

test("an answer being made counts three times its kind's size; small kinds still start", async () => {
  const u = new UnreadAnswers(0, 64 * MiB);
  u.made("tools/call huge", 15 * MiB);
  u.made("tools/list", 2000);
  const a = await u.enter("tools/call huge"); // 45 MiB being made
  const b = u.enter("tools/call huge"); // 90 MiB with it: over the bound
  expect(await within(b, 200)).toBe("waiting");
  expect(await within(u.enter("tools/list"))).toBe("started");
  a();
  expect(await within(b, 300)).toBe("started");
});
