// Legacy HTTP sessions expire after http.sessionIdleMs unused: checked against an injected clock, in-process, instead of
// waiting for time to pass (the expiry is measured when a session is used, and by the sweeper).
import { expect, test } from "bun:test";
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import { Registry } from "../../src/server/registry.ts";
import { LegacySessions } from "../../src/transport/http-sessions.ts";

const registry = new Registry({
  name: "s",
  version: "1.0.0",
  tools: [tool({ name: "echo", description: "echo", input: v.object({ text: v.string() }), run: ({ text }) => text })],
});

test("an idle session expires after idleMs, counted from its last use; until then each use keeps it", () => {
  let t = 1_000_000;
  const sessions = new LegacySessions(registry, 1200, 3, undefined, undefined, 3, () => t);
  try {
    const s = sessions.create();
    expect(sessions.add(s)).toBe(true);
    t += 1200;
    expect(sessions.get(s.id)).toBe(s); // exactly idleMs: still live, and used now
    t += 1200;
    expect(sessions.get(s.id)).toBe(s);
    t += 1201;
    expect(sessions.get(s.id)).toBeUndefined();
    expect(sessions.size).toBe(0);
  } finally {
    sessions.close();
  }
});

test("the sweeper ends idle sessions that nobody uses again", () => {
  let t = 5_000;
  const sessions = new LegacySessions(registry, 1200, 3, undefined, undefined, 3, () => t);
  try {
    const [a, b] = [sessions.create(), sessions.create()];
    sessions.add(a);
    sessions.add(b);
    t += 1000;
    sessions.get(b.id);
    t += 1000; // a: 2000 ms idle, b: 1000 ms
    sessions.sweep();
    expect(sessions.get(a.id)).toBeUndefined();
    expect(sessions.get(b.id)).toBe(b);
  } finally {
    sessions.close();
  }
});
