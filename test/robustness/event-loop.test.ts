// Nothing of mcpbin's keeps the process alive after shutdown: stdin EOF, SIGTERM, SIGINT and EPIPE end a server that has no exit backstop.
import { describe, expect, test } from "bun:test";
import { INITED, initLine, spawnPerTest, type McpProcess } from "../helpers/proc.ts";
import { call, exitWithin } from "./harness.ts";
import { pokeUntilExit } from "../helpers/wait.ts";

const BARE = "test/robustness/bare-stdio.ts";
const spawn = spawnPerTest(BARE); // killed after each test, passed or not

async function started(): Promise<McpProcess> {
  const p = spawn();
  await p.handshake("2025-06-18");
  p.send(call(2, "wait", { ms: 1_000_000 }, { progressToken: "w" })); // aborted after the 200 ms grace; its timeout timer must go too
  await p.waitFor((m) => m.method === "notifications/progress"); // the call is in flight
  return p;
}

describe("the event loop is released", () => {
  test("stdin EOF with a call in flight: exit 0 without any forced exit", async () => {
    const p = await started();
    p.closeStdin();
    expect(await exitWithin(p, 5000)).toBe(0);
    expect(p.stderr).toContain("bare: serveStdio resolved");
    expect(await p.response(2)).toMatchObject({ result: { isError: true } });
  });

  for (const sig of ["SIGTERM", "SIGINT"] as const) {
    test(`${sig} with stdin still open: stdin is let go and the process exits 0`, async () => {
      const p = await started();
      p.proc.kill(sig);
      expect(await exitWithin(p, 5000)).toBe(0);
      expect(await p.response(2)).toMatchObject({ result: { isError: true } });
    });
  }

  test("EPIPE with stdin still open: the process exits 0", async () => {
    const p = Bun.spawn([process.execPath, BARE], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    p.stdin.write(`${initLine("2025-06-18")}\n${INITED}\n`);
    await p.stdin.flush();
    const reader = p.stdout.getReader();
    await reader.read();
    p.stdin.write(JSON.stringify(call(2, "wait", { ms: 1_000_000 })) + "\n");
    await p.stdin.flush();
    await reader.cancel();
    // A ping's answer hits the closed pipe (pinged again while the close has not landed yet).
    const code = await pokeUntilExit(p.exited, () => {
      p.stdin.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
      void p.stdin.flush();
    }).finally(() => p.kill("SIGKILL"));
    expect(code).toBe(0);
  });
});
