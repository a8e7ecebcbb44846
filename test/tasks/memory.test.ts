/** @module Memory: 10,000 finished tasks held in the memory store of a compiled executable stay within a stated bound (RSS read from /proc). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { compileFixture, INITED, McpProcess } from "../helpers/proc.ts";

/** The bound docs/tasks.md states: RSS growth after a collection for 10,000 finished tasks (each with a small structured result). */
const BOUND_MIB = 32;
const N = 10_000;
/** The JS heap in use after a collection (the tasks themselves: 10,000 JSON records in a Map). */
const HEAP_BOUND_MIB = 12;

let p: McpProcess;
beforeAll(async () => {
  // Every task of the burst may be running at once: no maxRunning refusal in a test of what finished tasks hold.
  p = new McpProcess([await compileFixture("test/fixtures/servers/tasks.ts", "tasks-memory")], {
    env: { TASKS_MAX_RUNNING: "100000" },
  });
  p.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await p.response(1);
  p.send(INITED);
});
afterAll(() => p?.kill());

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

let sent = 0;
const completed = () =>
  p.messages.filter((m) => m.method === "notifications/tasks/status" && m.params.status === "completed").length;

/** Creates `count` quick tasks in one write and waits until every one has completed (its status notification). */
async function finish(from: number, count: number): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++)
    lines.push(
      JSON.stringify({
        jsonrpc: "2.0",
        id: from + i,
        method: "tools/call",
        params: { name: "work", arguments: { ms: 0, text: `task ${from + i}` }, task: {} },
      }),
    );
  p.write(lines.join("\n") + "\n");
  sent += count;
  await p.response(from + count - 1, 60_000);
  for (let i = 0; i < 600 && completed() < sent; i++) await Bun.sleep(50);
}

let gcId = 500_000;
/** RSS after a full collection in the server (its `gc` tool), and its JS heap in use, MiB. */
async function measure(): Promise<{ rss: number; heap: number }> {
  p.send({ jsonrpc: "2.0", id: ++gcId, method: "tools/call", params: { name: "gc", arguments: {} } });
  const r = JSON.parse((await p.response(gcId)).result.content[0].text);
  await Bun.sleep(200);
  return { rss: rssMiB(p.proc.pid), heap: r.heapUsed / 1048576 };
}

test(`${N} finished tasks in the memory store: RSS grows by less than ${BOUND_MIB} MiB after a collection, and the last of them is still readable`, async () => {
  await finish(1000, 200); // warm up: the JIT and the first allocations
  const before = await measure();
  await finish(1200, N);
  const after = await measure();
  const grown = after.rss - before.rss;
  const heap = after.heap - before.heap;
  process.stderr.write(
    `tasks memory: RSS ${before.rss.toFixed(1)} → ${after.rss.toFixed(1)} MiB (+${grown.toFixed(1)}), JS heap in use +${heap.toFixed(1)} MiB (${((heap * 1048576) / N).toFixed(0)} bytes per task) for ${N} finished tasks\n`,
  );
  expect(grown).toBeLessThan(BOUND_MIB);
  expect(heap).toBeLessThan(HEAP_BOUND_MIB);
  expect(completed()).toBe(N + 200);
  const last = p.messages.find((m) => m.id === 1200 + N - 1)!.result.task.taskId;
  p.send({ jsonrpc: "2.0", id: 99_999, method: "tasks/result", params: { taskId: last } });
  expect((await p.response(99_999)).result.structuredContent).toEqual({ text: `task ${1200 + N - 1}`, ms: 0 });
}, 120_000);
