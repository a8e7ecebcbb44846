// Worker sessions (docs/sessions.md, examples/sessions/worker-server.ts): the server starts two session processes from a module,
// spreads calls over them, restarts one whose call timed out, and ends them with itself.
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { BUN, launch, ROOT, tempDir, text, toolNames, until } from "./harness.ts";

const EXAMPLE = resolve(ROOT, "examples/sessions");

/** The worker pids list_sessions shows. */
async function workerPids(c: Awaited<ReturnType<typeof launch>>): Promise<number[]> {
  const r = await c.client.callTool({ name: "list_sessions", arguments: {} });
  return (r.structuredContent as any).sessions
    .filter((s: any) => s.worker)
    .map((s: any) => s.pid)
    .sort();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("two workers start, take calls, one is restarted after a timed-out call, and all end with the server", async () => {
  const dir = `${tempDir()}/s`;
  const c = await launch(BUN, [resolve(EXAMPLE, "worker-server.ts")], EXAMPLE, {
    MCPBIN_SESSION_DIR: dir,
    MCPBIN_SESSION_TIMEOUT_MS: "2000",
  });
  const pids = await until(
    async () => {
      const p = await workerPids(c);
      return p.length === 2 ? p : false;
    },
    "two workers",
    20_000,
  );
  expect(await toolNames(c)).toEqual(["list_sessions", "select_session", "fibonacci"]);
  const r = await c.client.callTool({ name: "fibonacci", arguments: { n: 20 } });
  const v = JSON.parse((r.content as any)[0].text);
  expect(v.value).toBe(6765);
  expect(pids).toContain(v.pid);
  expect(text(r)).toContain(`[ran in session "fib-worker", pid ${v.pid}`);
  // Two calls at once go to the two workers.
  const both = await Promise.all([18, 19].map((n) => c.client.callTool({ name: "fibonacci", arguments: { n } })));
  expect(new Set(both.map((b) => JSON.parse((b.content as any)[0].text).pid)).size).toBe(2);
  // A call that cannot finish in time: an isError result, and its worker (busy in a loop) is replaced.
  const slow = await c.client.callTool({ name: "fibonacci", arguments: { n: 48 } });
  expect(slow.isError).toBe(true);
  expect(text(slow)).toContain("did not answer within 2 s");
  const after = await until(
    async () => {
      const p = await workerPids(c);
      return p.length === 2 && p.some((x) => !pids.includes(x)) ? p : false;
    },
    "a restarted worker",
    20_000,
  );
  expect(after.filter((p) => !pids.includes(p)).length).toBe(1);
  expect(
    JSON.parse(((await c.client.callTool({ name: "fibonacci", arguments: { n: 10 } })).content as any)[0].text).value,
  ).toBe(55);
  await c.close();
  await until(() => after.every((p) => !alive(p)), "the workers to end with the server", 10_000);
});
