/**
 * @module Tasks on stores that outlive a process, against compiled executables: a stdio server restarted while a
 * task runs (file store) reports it failed and still has a finished task's result; two HTTP processes behind one
 * real redis-server create, read, answer, cancel and complete each other's tasks (2026-07-28 extension).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileFixture, INITED, McpProcess } from "../helpers/proc.ts";
import { startRedis, type RedisServer } from "../helpers/redis.ts";
import { HttpProcess, modernHeaders, post } from "../http/helpers.ts";

const EXT = "io.modelcontextprotocol/tasks";
let bin: string;
let dir: string;
let redis: RedisServer;
const procs: { kill(): void }[] = [];

beforeAll(async () => {
  [bin, redis] = await Promise.all([compileFixture("test/fixtures/servers/tasks.ts", "tasks-stores"), startRedis()]);
  dir = mkdtempSync(join(tmpdir(), "mcpbin-tasks-file-"));
});
afterAll(async () => {
  for (const p of procs) p.kill();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function stdio(): Promise<McpProcess> {
  const p = new McpProcess([bin], { env: { TASKS_STORE: "file", TASKS_DIR: dir } });
  procs.push(p);
  p.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await p.response(1);
  p.send(INITED);
  return p;
}

test("file store: after a restart, a task that was running is failed (tasks/get and tasks/result say why) and a finished task's result is still there", async () => {
  const a = await stdio();
  const running = (await a.request("tools/call", { name: "work", arguments: { ms: 60_000 }, task: {} }, 2)).result.task;
  const finished = (await a.request("tools/call", { name: "work", arguments: { ms: 1, text: "kept" }, task: {} }, 3))
    .result.task;
  const result = (await a.request("tasks/result", { taskId: finished.taskId }, 4)).result;
  expect(result.structuredContent).toEqual({ text: "kept", ms: 1 });
  // One file per task (and the runner's heartbeat), written before each reply.
  expect(readdirSync(dir).filter((n) => n.startsWith("k-")).length).toBe(3);
  a.kill();
  await a.exited;

  const b = await stdio();
  const got = (await b.request("tasks/get", { taskId: running.taskId }, 2, "2025-11-25")).result;
  expect(got.status).toBe("failed");
  expect(got.statusMessage).toMatch(/ended before the task finished/);
  const err = (await b.request("tasks/result", { taskId: running.taskId }, 3)).error;
  expect(err).toMatchObject({ code: -32603 });
  const again = (await b.request("tasks/result", { taskId: finished.taskId }, 4)).result;
  expect(again).toEqual(result);
  const list = (await b.request("tasks/list", {}, 5, "2025-11-25")).result.tasks.map(
    (t: { taskId: string; status: string }) => [t.taskId, t.status],
  );
  expect(list).toEqual([
    [running.taskId, "failed"],
    [finished.taskId, "completed"],
  ]);
  b.kill();
});

test("redis store: a task created on one process is read, answered, cancelled and completed through another", async () => {
  const env = { TASKS_STORE: "redis", TASKS_URL: redis.url };
  const [one, two] = await Promise.all([HttpProcess.start([bin], { env }), HttpProcess.start([bin], { env })]);
  procs.push(one, two);
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [EXT]: {} } },
  };
  let n = 10;
  const rpc = async (h: HttpProcess, method: string, params: Record<string, unknown>) => {
    const name = (params.taskId ?? params.name) as string | undefined;
    const r = await post(
      h.url,
      { jsonrpc: "2.0", id: ++n, method, params: { ...params, _meta: meta } },
      modernHeaders(method, name),
    );
    return r.json;
  };
  const until = async (h: HttpProcess, taskId: string, status: string) => {
    for (let i = 0; i < 600; i++) {
      const r = (await rpc(h, "tasks/get", { taskId })).result;
      if (r.status === status) return r;
      await Bun.sleep(25);
    }
    throw new Error(`never ${status}`);
  };

  // Created on one, finished there, read on two.
  const quick = (await rpc(one, "tools/call", { name: "work", arguments: { ms: 100, text: "shared" } })).result;
  expect(quick.resultType).toBe("task");
  expect((await rpc(two, "tasks/get", { taskId: quick.taskId })).result.status).toMatch(/working|completed/);
  const done = await until(two, quick.taskId, "completed");
  expect(done.result.structuredContent).toEqual({ text: "shared", ms: 100 });

  // Its question answered through two; it runs on one and completes.
  const asking = (await rpc(one, "tools/call", { name: "confirm", arguments: {} })).result;
  const waiting = await until(two, asking.taskId, "input_required");
  expect(Object.keys(waiting.inputRequests)).toEqual(["ok"]);
  expect(
    (
      await rpc(two, "tasks/update", {
        taskId: asking.taskId,
        inputResponses: { ok: { action: "accept", content: { ok: true } } },
      })
    ).result,
  ).toMatchObject({ resultType: "complete" });
  expect((await until(one, asking.taskId, "completed")).result.content).toEqual([{ type: "text", text: "confirmed" }]);

  // Cancelled through two: stays cancelled, and one's run stops (its signal aborts; no completion overwrites it).
  const long = (await rpc(one, "tools/call", { name: "work", arguments: { ms: 1500, text: "late" } })).result;
  expect((await rpc(two, "tasks/cancel", { taskId: long.taskId })).result).toMatchObject({ resultType: "complete" });
  await Bun.sleep(1800);
  expect((await rpc(one, "tasks/get", { taskId: long.taskId })).result.status).toBe("cancelled");

  // One gone for good: two reports its running task failed (its heartbeat's process is gone).
  const orphan = (await rpc(one, "tools/call", { name: "work", arguments: { ms: 60_000 } })).result;
  one.kill();
  await one.exited;
  const failed = await until(two, orphan.taskId, "failed");
  expect(failed.error).toMatchObject({ code: -32603 });
});

test("ownership over HTTP (2025-11-25 sessions): another session's task is not found by tasks/get, tasks/result, tasks/cancel, nor listed", async () => {
  const h = await HttpProcess.start([bin], { env: { TASKS_STORE: "memory" } });
  procs.push(h);
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  };
  const session = async () => {
    const r = await post(
      h.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      headers,
    );
    const sid = r.headers.get("mcp-session-id")!;
    await post(h.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...headers, "mcp-session-id": sid });
    let n = 1;
    return async (method: string, params: Record<string, unknown>) => {
      const r = await post(h.url, { jsonrpc: "2.0", id: ++n, method, params }, { ...headers, "mcp-session-id": sid });
      return (
        r.json ??
        JSON.parse(
          r.text
            .split("\n")
            .find((l) => l.startsWith("data:"))!
            .slice(5),
        )
      );
    };
  };
  const alice = await session();
  const mallory = await session();
  const { task } = (await alice("tools/call", { name: "work", arguments: { ms: 5000, text: "secret" }, task: {} }))
    .result;
  for (const m of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    expect((await mallory(m, { taskId: task.taskId })).error).toMatchObject({
      code: -32602,
      message: "Failed to retrieve task: Task not found",
    });
  }
  expect((await mallory("tasks/list", {})).result.tasks).toEqual([]);
  expect((await alice("tasks/list", {})).result.tasks.map((t: { taskId: string }) => t.taskId)).toEqual([task.taskId]);
  expect((await alice("tasks/get", { taskId: task.taskId })).result.status).toBe("working");
  await alice("tasks/cancel", { taskId: task.taskId });
});

test("redis store without a url: MCPBIN_REDIS_URL (the replicas' shared Redis) is the default", async () => {
  const env = { TASKS_STORE: "redis", MCPBIN_REDIS_URL: redis.url };
  const [one, two] = await Promise.all([HttpProcess.start([bin], { env }), HttpProcess.start([bin], { env })]);
  procs.push(one, two);
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXT]: {} } },
  };
  const call = (h: HttpProcess, id: number, method: string, params: Record<string, unknown>) =>
    post(
      h.url,
      { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } },
      modernHeaders(method, (params.taskId ?? params.name) as string),
    );
  const made = (await call(one, 1, "tools/call", { name: "work", arguments: { ms: 1, text: "default url" } })).json
    .result;
  let got: Record<string, any> = {};
  for (let i = 0; i < 200 && got.status !== "completed"; i++) {
    got = (await call(two, 2, "tasks/get", { taskId: made.taskId })).json.result;
    await Bun.sleep(20);
  }
  expect(got.result.structuredContent).toEqual({ text: "default url", ms: 1 });
});
