/** @module Tests wait on events, not time: counts the bare sleeps in test/ (an awaited `Bun.sleep` or `setTimeout` promise on a line of its own) and fails on any the list below does not allow. */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { resolve } from "node:path";

const TEST = resolve(import.meta.dir, "..");
const BARE = /^\s*await (Bun\.sleep\([^)]*\)|new Promise\(\(?\w*\)? => setTimeout\(\w+, [^)]*\)\));/;

/**
 * Bare sleeps still allowed, by file. Fixtures are not counted: a tool that takes time is what they serve. A
 * sleep where time is the thing tested (a TTL, a sweep period, a span's duration) carries a comment saying so;
 * the others wait for something and are to be replaced by a wait on the event (test/helpers/wait.ts). The list
 * only shrinks: a file with fewer sleeps than listed fails too, so the number is lowered with the change.
 */
const ALLOWED: Record<string, number> = {
  "client/late-asks.test.ts": 1,
  "client/proxy-faults.test.ts": 1,
  "docs/middleware.test.ts": 1,
  "helpers/proc-stats.ts": 1,
  "helpers/redis.ts": 1,
  "http/unread-answers.test.ts": 1,
  "openapi/tools-documents.test.ts": 1,
  "robustness/framing.test.ts": 2,
  "robustness/lifecycle.test.ts": 1,
  "robustness/parent-death.test.ts": 3,
  "scale/deploy.test.ts": 1,
  "scale/haproxy.ts": 1,
  "scale/shared-counters.test.ts": 1,
  "serve/mount.test.ts": 1,
  "sessions/harness.ts": 1,
  "sessions/memory.test.ts": 1,
  "state/feed-store-failure.test.ts": 1,
  "state/stores.test.ts": 7,
  "tasks/docs-example.test.ts": 1,
  "tasks/legacy.test.ts": 3,
  "tasks/memory.test.ts": 1,
  "tasks/stores.test.ts": 3,
  "tasks/tracing.test.ts": 2,
  "tasks/versions.test.ts": 1,
  "transport/stream-events.test.ts": 1,
};

test("test/ has no bare sleep beyond the allowed list, and the list is exact", async () => {
  const counts: Record<string, number> = {};
  for await (const file of new Glob("**/*.ts").scan({ cwd: TEST })) {
    if (file.split("/").includes("fixtures")) continue;
    const n = (await Bun.file(resolve(TEST, file)).text()).split("\n").filter((l) => BARE.test(l)).length;
    if (n > 0) counts[file] = n;
  }
  expect(Object.fromEntries(Object.entries(counts).sort())).toEqual(ALLOWED);
});
