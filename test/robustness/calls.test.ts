// Calls in flight (B20, maxInFlight, duplicate ids, cancellation, progress, timeouts, maxResultBytes) against the compiled fixture.
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { META, type McpProcess } from "../helpers/proc.ts";
import { assertValidNotification, assertValidResponse } from "../helpers/schema.ts";
import { assertAllJson, call, exitWithin, fixtureBin, killAfterEach, spawnFixture, textOf } from "./harness.ts";

killAfterEach();

const V = "2025-06-18";

setDefaultTimeout(30_000); // bun 1.4.4 ignores bunfig's [test] timeout; these tests run real processes
beforeAll(async () => {
  await fixtureBin();
}, 60_000);

const byId = (p: McpProcess, id: unknown) => p.messages.filter((m) => m.id === id && !("method" in m));
const indexOf = (p: McpProcess, id: unknown) => p.messages.findIndex((m) => m.id === id && !("method" in m));

async function done(p: McpProcess) {
  p.closeStdin();
  expect(await exitWithin(p, 5000)).toBe(0);
  assertAllJson(p);
}

describe("B20 a slow tool must not block other requests", () => {
  test("ids 3 and 4 answered while id 2 still runs; id 2 after ≥ 1500 ms", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    const t0 = performance.now();
    p.send(call(2, "sleep", { ms: 1500 }));
    p.send(call(3, "echo", { text: "fast" }));
    p.send('{"jsonrpc":"2.0","id":4,"method":"ping"}');
    const r3 = await p.response(3);
    const r4 = await p.response(4);
    expect(byId(p, 2)).toEqual([]); // the slow call has not answered yet: it did not hold the others back
    expect(textOf(r3)).toBe("fast");
    assertValidResponse(V, "tools/call", r3);
    expect(r4.result).toEqual({});
    const r2 = await p.response(2);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1500);
    expect(textOf(r2)).toBe("slept 1500");
    expect(indexOf(p, 2)).toBeGreaterThan(indexOf(p, 4));
    await done(p);
  });

  test("the whole kind: responses go out in completion order, each with its own result", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    const ms = [400, 100, 300, 0, 200];
    ms.forEach((m, i) => p.send(call(10 + i, "wait", { ms: m })));
    for (let i = 0; i < ms.length; i++) expect(textOf(await p.response(10 + i))).toBe(`waited ${ms[i]}`);
    expect(p.messages.slice(1).map((m) => m.id)).toEqual([13, 11, 14, 12, 10]);
    await done(p);
  });
});

describe("maxInFlight", () => {
  test("at the limit, reading pauses (later lines wait) and nothing is dropped", async () => {
    const p = await spawnFixture({ FIXTURE_MAX_IN_FLIGHT: "2" });
    await p.handshake(V);
    for (let id = 2; id <= 5; id++) p.send(call(id, "wait", { ms: 300 }));
    p.send('{"jsonrpc":"2.0","id":6,"method":"ping"}');
    await p.response(6);
    for (let id = 2; id <= 5; id++) expect(textOf(await p.response(id))).toBe("waited 300");
    // The ping was read only after a call slot freed up: at least the first two calls answered before it.
    expect(indexOf(p, 6)).toBeGreaterThan(Math.max(indexOf(p, 2), indexOf(p, 3)));
    await done(p);
  });

  test("a burst of 2,000 async calls through a limit of 4: every one answered exactly once", async () => {
    const p = await spawnFixture({ FIXTURE_MAX_IN_FLIGHT: "4" });
    await p.handshake(V);
    let batch = "";
    for (let id = 100; id < 2100; id++) batch += JSON.stringify(call(id, "wait", { ms: id % 3 })) + "\n";
    p.write(batch);
    p.send('{"jsonrpc":"2.0","id":"last","method":"ping"}');
    await p.response("last");
    for (let id = 100; id < 2100; id++) await p.response(id);
    // Positive marker after any duplicate could have come: a later request's answer.
    await p.request("ping", undefined, "after", V);
    const ids = p.messages.filter((m) => typeof m.id === "number" && m.id >= 100).map((m) => m.id);
    expect(ids.length).toBe(2000);
    expect(new Set(ids).size).toBe(2000);
    await done(p);
  });
});

describe("duplicate ids", () => {
  test("a request reusing an id in flight gets -32600 while the first completes normally", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    p.send(call(7, "wait", { ms: 300 }));
    p.send(call(7, "echo", { text: "dup" }));
    p.send('{"jsonrpc":"2.0","id":7,"method":"ping"}');
    p.send(call(7, "wait", { ms: 1 }));
    p.send(call("7", "echo", { text: "string id is another id" }));
    await p.waitFor((m) => m.id === 7 && "result" in m);
    const seven = byId(p, 7);
    expect(seven.length).toBe(4);
    expect(seven.slice(0, 3).map((m) => m.error?.code)).toEqual([-32600, -32600, -32600]);
    for (const m of seven.slice(0, 3)) assertValidResponse(V, "tools/call", m);
    expect(textOf(seven[3]!)).toBe("waited 300");
    expect(textOf(await p.response("7"))).toBe("string id is another id");
    // Once finished, the id is free again.
    p.send(call(7, "echo", { text: "again" }));
    await p.waitFor((m) => m.id === 7 && textOf(m) === "again");
    expect(byId(p, 7).length).toBe(5);
    await done(p);
  });
});

describe("cancellation", () => {
  test("notifications/cancelled aborts ctx.signal and nothing more is sent for the request", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    p.send(call(10, "wait", { ms: 60_000, tag: "c10" }));
    p.send(call(11, "ticks", { n: 30 }, { progressToken: "tk" }));
    await p.waitFor((m) => m.method === "notifications/progress" && m.params.progressToken === "tk");
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10, reason: "user" } });
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11 } });
    await p.request("ping", undefined, 12, V);
    const progressSoFar = p.messages.filter(
      (m) => m.method === "notifications/progress" && m.params.progressToken === "tk",
    ).length;
    // Positive marker: the same ticks, started after the cancelled one, have all been sent and answered.
    p.send(call(13, "ticks", { n: 30 }, { progressToken: "tk2" }));
    await p.response(13);
    expect(
      p.messages.filter((m) => m.method === "notifications/progress" && m.params.progressToken === "tk").length,
    ).toBe(progressSoFar);
    expect(byId(p, 10).length).toBe(0);
    expect(byId(p, 11).length).toBe(0);
    expect(p.stderr).toContain("wait c10 aborted: cancelled: user");
    await done(p);
    expect(byId(p, 10).length + byId(p, 11).length).toBe(0);
  });

  test("unknown and finished ids are ignored; a modern request is cancelled the same way", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    await p.request("tools/call", { name: "wait", arguments: { ms: 1 } }, 20, V);
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 20 } });
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "nope" } });
    p.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 21, reason: "before it exists" },
    });
    const r21 = await p.request("tools/call", { name: "wait", arguments: { ms: 50 } }, 21, V);
    expect(textOf(r21)).toBe("waited 50");
    p.send(call(22, "wait", { ms: 60_000, tag: "m22" }, META));
    p.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 22, _meta: META } });
    await p.waitForStderr("wait m22 aborted");
    await p.request("ping", undefined, 23, V);
    expect(byId(p, 22).length).toBe(0);
    expect(p.messages.map((m) => m.id)).toEqual([1, 20, 21, 23]);
    await done(p);
  });
});

describe("progress", () => {
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]) {
    test(`${version}: notifications/progress only with a progressToken, valid against the schema`, async () => {
      const p = await spawnFixture();
      const modern = version === "2026-07-28";
      if (!modern) await p.handshake(version);
      const meta = (extra: Record<string, unknown>) =>
        modern ? { ...META, ...extra } : Object.keys(extra).length ? extra : undefined;
      for (const [id, token] of [
        [2, "tok"],
        [3, 0],
      ] as const) {
        const r = await p.request(
          "tools/call",
          {
            name: "progress",
            arguments: {},
            ...(meta({ progressToken: token }) ? { _meta: meta({ progressToken: token }) } : {}),
          },
          id,
          version,
        );
        expect(textOf(r)).toBe("done");
        const notes = p.messages.filter(
          (m) => m.method === "notifications/progress" && m.params.progressToken === token,
        );
        expect(notes.map((n) => n.params.progress)).toEqual([1, 2, 3]);
        for (const n of notes) {
          assertValidNotification(version, "ProgressNotification", n);
          expect(n.params.total).toBe(3);
          if (version === "2024-11-05") expect("message" in n.params).toBe(false);
          else expect(n.params.message).toMatch(/^step \d$/);
          expect(indexOf(p, id)).toBeGreaterThan(p.messages.indexOf(n)); // before the result, never after
        }
      }
      // A token the schema cannot carry (ProgressToken is string | integer) is treated as absent.
      const beforeBad = p.messages.length;
      const bad = await p.request(
        "tools/call",
        { name: "progress", arguments: {}, _meta: modern ? { ...META, progressToken: 1.5 } : { progressToken: 1.5 } },
        5,
        version,
      );
      expect(textOf(bad)).toBe("done");
      expect(p.messages.length).toBe(beforeBad + 1);
      const before = p.messages.length;
      const plain = meta({});
      const r = await p.request(
        "tools/call",
        { name: "progress", arguments: {}, ...(plain ? { _meta: plain } : {}) },
        4,
        version,
      );
      expect(textOf(r)).toBe("done");
      expect(p.messages.length).toBe(before + 1);
      await done(p);
    });
  }
});

describe("timeouts", () => {
  test("tool({ timeoutMs }): isError 'timed out after 300 ms' and the signal is aborted", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    const r = await p.request("tools/call", { name: "limited", arguments: { ms: 10_000 } }, 2, V);
    expect(r.result.isError).toBe(true);
    expect(textOf(r)).toContain("timed out after 300 ms");
    await p.waitForStderr("wait limited aborted: timed out after 300 ms");
    expect(textOf(await p.request("tools/call", { name: "limited", arguments: { ms: 10 } }, 3, V))).toBe("waited 10");
    await done(p);
  });

  test("serve({ timeoutMs }): server-wide limit, a tool's own limit wins, a late result is dropped", async () => {
    const p = await spawnFixture({ FIXTURE_TIMEOUT_MS: "400" });
    await p.handshake(V);
    p.send(call(2, "wait", { ms: 10_000, tag: "srv" }));
    p.send(call(3, "limited", { ms: 10_000 }));
    p.send(call(4, "stubborn", { ms: 600 }));
    p.send(call(5, "wait", { ms: 50 }));
    for (const [id, ms] of [
      [2, 400],
      [3, 300],
      [4, 400],
    ] as const) {
      const r = await p.response(id);
      assertValidResponse(V, "tools/call", r);
      expect(r.result.isError).toBe(true);
      expect(textOf(r)).toContain(`timed out after ${ms} ms`);
    }
    expect(textOf(await p.response(5))).toBe("waited 50");
    // stubborn returns at 600 ms; nothing more may be sent for id 4. Positive marker: it has
    // returned (stderr), and a request sent after that has been answered.
    await p.waitForStderr("stubborn 600 returns");
    await p.request("ping", undefined, 6, V);
    expect(byId(p, 4).length).toBe(1);
    expect(p.stderr).toContain("wait srv aborted: timed out after 400 ms");
    await done(p);
  });
});

describe("maxResultBytes", () => {
  test("a result over the limit becomes an isError result; bytes are counted, not characters", async () => {
    const p = await spawnFixture({ FIXTURE_MAX_RESULT_BYTES: "100000" });
    await p.handshake(V);
    const over = await p.request("tools/call", { name: "big", arguments: { n: 200_000 } }, 2, V);
    expect(over.result.isError).toBe(true);
    expect(textOf(over)).toContain("maxResultBytes");
    expect(textOf(await p.request("tools/call", { name: "big", arguments: { n: 1000 } }, 3, V)).length).toBe(1000);
    const wide = await p.request("tools/call", { name: "echo", arguments: { text: "é".repeat(60_000) } }, 4, V);
    expect(wide.result.isError).toBe(true);
    const modern = await p.request(
      "tools/call",
      { name: "big", arguments: { n: 200_000 }, _meta: META },
      5,
      "2026-07-28",
    );
    expect(modern.result.isError).toBe(true);
    for (const line of p.lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(100_000);
    await done(p);
  });
});
