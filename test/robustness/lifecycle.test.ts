// Process lifecycle B09, B10 and shutdown (EOF, SIGTERM, SIGINT, grace, flush) against the compiled fixture over real pipes.
import { beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync } from "node:fs";
import { initLine, INITED } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import {
  assertAllJson,
  call,
  cpuTicks,
  exitWithin,
  fixtureBin,
  killAfterEach,
  spawnFixture,
  textOf,
} from "./harness.ts";
import { pokeUntilExit, StreamText } from "../helpers/wait.ts";

killAfterEach();

const V = "2025-06-18";

setDefaultTimeout(30_000); // bun 1.4.4 ignores bunfig's [test] timeout; these tests run real processes
beforeAll(async () => {
  await fixtureBin();
}, 60_000);

/** A server whose pipes the test drives by hand (to stop reading stdout, or close it). */
async function rawSpawn(env: Record<string, string> = {}) {
  const p = Bun.spawn([await fixtureBin()], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  const send = (s: string) => {
    p.stdin.write(s + "\n");
    p.stdin.flush();
  };
  return { p, send };
}

describe("B09 stay up while stdin is open, exit when it closes", () => {
  test("(a) idle 3 s: no output, under 5% CPU, then answers; (b) stdin EOF: exit 0 within 2 s, nothing left behind", async () => {
    const p = await spawnFixture();
    // Started once it answers a ping; then the idle window itself (the time passing is what is measured).
    expect((await p.request("ping", undefined, 0, V)).result).toEqual({});
    const before = cpuTicks(p.proc.pid);
    await Bun.sleep(3000);
    const used = cpuTicks(p.proc.pid) - before;
    expect(used).toBeLessThan(15); // 5% of 300 ticks (3 s at 100 Hz)
    expect(p.lines.length).toBe(1); // the ping's answer, nothing while idle
    await p.handshake(V);
    p.closeStdin();
    expect(await exitWithin(p, 2000)).toBe(0);
    expect(existsSync(`/proc/${p.proc.pid}`)).toBe(false);
    expect(p.lines.length).toBe(2);
  });

  test("(c) binary < /dev/null: exit 0 within 2 s, empty stdout", async () => {
    const p = Bun.spawn([await fixtureBin()], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const t = setTimeout(() => p.kill("SIGKILL"), 2000);
    const code = await p.exited;
    clearTimeout(t);
    expect(code).toBe(0);
    expect(await new Response(p.stdout).text()).toBe("");
  });
});

describe("B10 client goes away (EPIPE)", () => {
  test("stdout closed while a call runs: exit within 2 s of the failed write, quietly, no spin", async () => {
    const { p, send } = await rawSpawn();
    send(initLine(V));
    send(INITED);
    const reader = p.stdout.getReader();
    await reader.read();
    send(JSON.stringify(call(2, "sleep", { ms: 300 })));
    await reader.cancel();
    const closedAt = performance.now();
    setTimeout(() => {
      try {
        send('{"jsonrpc":"2.0","id":3,"method":"ping"}');
      } catch {}
    }, 1000);
    const t = setTimeout(() => p.kill("SIGKILL"), 4000);
    const code = await p.exited;
    clearTimeout(t);
    expect([0, 141]).toContain(code);
    expect(performance.now() - closedAt).toBeLessThan(2300 + 300);
    const stderr = await new Response(p.stderr).text();
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr.length).toBeLessThan(500);
  });

  test("the whole kind: stdout closed while idle, and in the middle of a multi-MiB line", async () => {
    // Idle: the next write (the ping's answer) fails, and the process ends.
    {
      const { p, send } = await rawSpawn();
      send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
      const reader = p.stdout.getReader();
      await reader.read();
      await reader.cancel();
      // The next write fails and ends the process (pinged again while the close has not landed yet).
      const code = await pokeUntilExit(p.exited, () => send('{"jsonrpc":"2.0","id":2,"method":"ping"}'), 2000).finally(
        () => p.kill("SIGKILL"),
      );
      expect([0, 141]).toContain(code);
    }
    // Mid-line: the client reads 64 KiB of an 8 MiB result, then goes away; a call is still running.
    {
      const { p, send } = await rawSpawn();
      send(initLine(V));
      send(INITED);
      send(JSON.stringify(call(3, "wait", { ms: 60_000, tag: "epipe" })));
      send(JSON.stringify(call(2, "big", { n: 8 * 1024 * 1024 })));
      const reader = p.stdout.getReader();
      let got = 0;
      while (got < 65536) got += (await reader.read()).value?.length ?? 0;
      await reader.cancel();
      const t = setTimeout(() => p.kill("SIGKILL"), 2000);
      expect([0, 141]).toContain(await p.exited);
      clearTimeout(t);
      const stderr = await new Response(p.stderr).text();
      expect(stderr).toContain("wait epipe aborted: The client went away");
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe("shutdown", () => {
  test("stdin EOF: in-flight calls finish within the grace period, then exit 0", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    p.send(call(2, "wait", { ms: 300 }));
    p.send(call(3, "progress", {}, { progressToken: "t" }));
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    expect(textOf(await p.response(2))).toBe("waited 300");
    expect(textOf(await p.response(3))).toBe("done");
    expect(p.messages.filter((m) => m.method === "notifications/progress").length).toBe(3);
  });

  test("stdin EOF: calls past the grace period are aborted with an isError result; a tool ignoring its signal does not hold the exit", async () => {
    const p = await spawnFixture({ FIXTURE_GRACE_MS: "300" });
    await p.handshake(V);
    p.send(call(2, "wait", { ms: 60_000, tag: "eof" }));
    p.send(call(3, "stubborn", { ms: 60_000 }));
    p.send(call(4, "wait", { ms: 10 }));
    await p.response(4);
    p.closeStdin();
    expect(await exitWithin(p, 3000)).toBe(0);
    for (const id of [2, 3]) {
      const r = await p.response(id);
      assertValidResponse(V, "tools/call", r);
      expect(r.result.isError).toBe(true);
      expect(textOf(r)).toContain("shutting down");
    }
    expect(p.stderr).toContain("wait eof aborted: The server is shutting down");
  });

  test("stdin EOF: every line is flushed, lines over 64 KiB included, to a client that reads late", async () => {
    const { p, send } = await rawSpawn();
    send(initLine(V));
    send(INITED);
    const sizes = [70_000, 1 << 20, 3 << 20, 200_000];
    sizes.forEach((n, i) => send(JSON.stringify(call(10 + i, "big", { n }))));
    send(JSON.stringify(call(20, "stubborn", { ms: 100 })));
    p.stdin.end();
    // The last call has returned (it says so on stderr), so every answer is written or waiting for the
    // full pipe: only now does the client start reading. The server must wait for it, not exit.
    const stderr = new StreamText(p.stderr);
    await stderr.waitFor("stubborn 100 returns");
    const out = await new Response(p.stdout).text();
    expect(await p.exited).toBe(0);
    const lines = out.split("\n");
    expect(lines.pop()).toBe("");
    const msgs = lines.map((l) => JSON.parse(l));
    expect(msgs.map((m) => m.id).sort()).toEqual([1, 10, 11, 12, 13, 20]);
    for (const [i, n] of sizes.entries()) expect(textOf(msgs.find((m) => m.id === 10 + i)).length).toBe(n);
  });

  for (const sig of ["SIGTERM", "SIGINT"] as const) {
    test(`${sig}: stop reading, finish in-flight calls, flush, exit 0 (stdin still open)`, async () => {
      const p = await spawnFixture();
      await p.handshake(V);
      p.send(call(2, "wait", { ms: 300 }));
      p.send(call(3, "big", { n: 300_000 }));
      await p.response(3);
      p.proc.kill(sig);
      expect(await exitWithin(p, 3000)).toBe(0);
      expect(textOf(await p.response(2))).toBe("waited 300");
      assertAllJson(p);
    });
  }

  test("a second signal skips the rest of the grace period", async () => {
    const p = await spawnFixture({ FIXTURE_GRACE_MS: "30000" });
    await p.handshake(V);
    p.send(call(2, "wait", { ms: 60_000, tag: "sig" }));
    p.send(call(3, "ticks", { n: 15 }, { progressToken: "k" }));
    await p.waitFor((m) => m.method === "notifications/progress");
    p.proc.kill("SIGTERM");
    // The call that was running finishes (~300 ms after it started): the server took the signal and is
    // in its grace period, with the 60 s wait still in flight.
    expect(textOf(await p.response(3))).toBe("ticked 15");
    expect(p.proc.exitCode).toBe(null);
    p.proc.kill("SIGINT");
    expect(await exitWithin(p, 3000)).toBe(0);
    const r = await p.response(2);
    expect(r.result.isError).toBe(true);
    expect(p.stderr).toContain("wait sig aborted");
  });

  test("stdin EOF then SIGTERM (the normal client shutdown) keeps the grace period", async () => {
    const p = await spawnFixture({ FIXTURE_GRACE_MS: "5000" });
    await p.handshake(V);
    p.send(call(2, "wait", { ms: 400 }));
    p.send('{"jsonrpc":"2.0","id":3,"method":"ping"}');
    await p.response(3);
    p.closeStdin();
    p.proc.kill("SIGTERM");
    expect(await exitWithin(p, 5000)).toBe(0);
    expect(textOf(await p.response(2))).toBe("waited 400");
  });

  test("errors tool code leaves unhandled are logged to stderr and the session goes on", async () => {
    const p = await spawnFixture();
    await p.handshake(V);
    expect(textOf(await p.request("tools/call", { name: "stray", arguments: {} }, 2, V))).toBe("ok");
    await p.waitForStderr("stray-rejection");
    await p.waitForStderr("stray-throw");
    expect((await p.request("ping", undefined, 3, V)).result).toEqual({});
    p.closeStdin();
    expect(await exitWithin(p, 3000)).toBe(0);
  });
});
