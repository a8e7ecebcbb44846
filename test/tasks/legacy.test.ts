/** @module Tasks at 2025-11-25 over stdio, against a compiled executable: create, poll, result exactly as the plain call's, list, cancel, status notifications, input_required through tasks/result, the errors. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { compileFixture, INITED, McpProcess } from "../helpers/proc.ts";

const V = "2025-11-25";
let bin: string;
let p: McpProcess;
let id = 100;

beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/tasks.ts", "tasks-legacy");
  p = new McpProcess([bin], { env: { TASKS_PAGE: "2", TASKS_MAX_RUNNING: "3" } });
  p.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: V, capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } },
  });
  await p.response(1);
  p.send(INITED);
});
afterAll(() => p?.kill());

/** A request, its response checked against the 2025-11-25 schema (a task-augmented tools/call answers with CreateTaskResult, which the check does not know). */
const call = (method: string, params: unknown) =>
  p.request(method, params, ++id, method === "tools/call" && (params as { task?: unknown }).task ? undefined : V);

async function until(taskId: string, done: (s: string) => boolean) {
  for (let i = 0; i < 600; i++) {
    const r = (await call("tasks/get", { taskId })).result;
    if (done(r.status)) return r;
    await Bun.sleep(20);
  }
  throw new Error("task never reached the status");
}

test("initialize advertises tasks; tools/list says each tool's taskSupport (absent: forbidden)", async () => {
  const init = p.messages.find((m) => m.id === 1)!.result;
  expect(init.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  const tools: { name: string; execution?: unknown }[] = [];
  let cursor: string | undefined;
  do {
    const r = (await call("tools/list", cursor ? { cursor } : {})).result;
    tools.push(...r.tools);
    cursor = r.nextCursor;
  } while (cursor);
  const by = Object.fromEntries(tools.map((t) => [t.name, t.execution]));
  expect(by).toEqual({
    work: { taskSupport: "optional" },
    report: { taskSupport: "required" },
    plain: undefined,
    confirm: { taskSupport: "optional" },
    broken: { taskSupport: "optional" },
  });
});

test("a task's tasks/result is exactly the plain call's result, with the related-task _meta; progress and status notifications arrive", async () => {
  const plain = (await call("tools/call", { name: "work", arguments: { ms: 150, steps: 3, text: "hi" } })).result;
  expect(plain.structuredContent).toEqual({ text: "hi", ms: 150 });
  const created = (
    await call("tools/call", {
      name: "work",
      arguments: { ms: 150, steps: 3, text: "hi" },
      task: { ttl: 60_000 },
      _meta: { progressToken: "pt" },
    })
  ).result;
  const task = created.task;
  expect(task.status).toBe("working");
  expect(task.ttl).toBe(60_000);
  expect(task.pollInterval).toBe(100);
  expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect((await call("tasks/get", { taskId: task.taskId })).result.status).toBe("working");
  const result = (await call("tasks/result", { taskId: task.taskId })).result;
  const { _meta, ...rest } = result;
  expect(rest).toEqual(plain);
  expect(_meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId: task.taskId } });
  expect((await call("tasks/get", { taskId: task.taskId })).result.status).toBe("completed");
  const progress = p.messages
    .filter((m) => m.method === "notifications/progress" && m.params.progressToken === "pt")
    .map((m) => m.params.progress);
  expect(progress).toEqual([1, 2, 3]); // the progressToken of the creating call stays valid for the task
  const statuses = p.messages
    .filter((m) => m.method === "notifications/tasks/status" && m.params.taskId === task.taskId)
    .map((m) => m.params.status);
  expect(statuses).toContain("completed");
});

test("tasks/cancel aborts the run's signal and the task stays cancelled; cancelling again is -32602", async () => {
  const { task } = (await call("tools/call", { name: "work", arguments: { ms: 60_000 }, task: {} })).result;
  const r = (await call("tasks/cancel", { taskId: task.taskId })).result;
  expect(r.status).toBe("cancelled");
  await Bun.sleep(50);
  expect((await call("tasks/get", { taskId: task.taskId })).result.status).toBe("cancelled");
  const again = await call("tasks/cancel", { taskId: task.taskId });
  expect(again.error).toMatchObject({
    code: -32602,
    message: "Cannot cancel task: already in terminal status 'cancelled'",
  });
  expect((await call("tasks/result", { taskId: task.taskId })).error.code).toBe(-32602);
});

test("input_required: the elicitation goes to the client through tasks/result, with related-task _meta; the answer resumes the task", async () => {
  const { task } = (await call("tools/call", { name: "confirm", arguments: {}, task: {} })).result;
  await until(task.taskId, (s) => s === "input_required");
  const rid = ++id;
  p.send({ jsonrpc: "2.0", id: rid, method: "tasks/result", params: { taskId: task.taskId } });
  const ask = await p.waitFor((m) => m.method === "elicitation/create");
  expect(ask.params._meta["io.modelcontextprotocol/related-task"]).toEqual({ taskId: task.taskId });
  expect(ask.params.message).toBe("Proceed?");
  p.send({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { ok: true } } });
  const r = await p.response(rid);
  expect(r.result.content).toEqual([{ type: "text", text: "confirmed" }]);
});

test("input_required: a client that answers the elicitation with a JSON-RPC error fails the ask; the task ends with the tool's error", async () => {
  const { task } = (await call("tools/call", { name: "confirm", arguments: {}, task: {} })).result;
  await until(task.taskId, (s) => s === "input_required");
  const before = p.messages.filter((m) => m.method === "elicitation/create").length;
  const rid = ++id;
  p.send({ jsonrpc: "2.0", id: rid, method: "tasks/result", params: { taskId: task.taskId } });
  const ask = await p.waitFor(
    (m) =>
      m.method === "elicitation/create" &&
      p.messages.filter((x) => x.method === "elicitation/create").indexOf(m) >= before,
  );
  p.send({ jsonrpc: "2.0", id: ask.id, error: { code: -32603, message: "the user closed the dialog" } });
  const r = (await p.response(rid)).result;
  expect(r.isError).toBe(true);
  expect(r.content[0].text).toContain("the user closed the dialog");
  expect((await call("tasks/get", { taskId: task.taskId })).result.status).toBe("failed");
});

test("errors: a required tool without a task and a forbidden one with a task are -32601; an isError result fails the task; unknown ids are -32602", async () => {
  expect((await call("tools/call", { name: "report", arguments: { month: "May" } })).error.code).toBe(-32601);
  expect((await call("tools/call", { name: "plain", arguments: {}, task: {} })).error.code).toBe(-32601);
  const { task } = (await call("tools/call", { name: "broken", arguments: {}, task: {} })).result;
  const done = await until(task.taskId, (s) => s !== "working");
  expect(done.status).toBe("failed");
  const r = (await call("tasks/result", { taskId: task.taskId })).result;
  expect(r.isError).toBe(true);
  expect(r.content[0].text).toBe("broken on purpose");
  for (const m of ["tasks/get", "tasks/result", "tasks/cancel"]) {
    expect((await call(m, { taskId: "no-such-task" })).error).toMatchObject({
      code: -32602,
      message: "Failed to retrieve task: Task not found",
    });
  }
});

test("hostile params: a bad task param, ttl or taskId is -32602 and the session goes on; a fourth running task over maxRunning 3 is refused until one ends", async () => {
  expect((await call("tools/call", { name: "work", arguments: { ms: 1 }, task: "yes" })).error.code).toBe(-32602);
  expect((await call("tools/call", { name: "work", arguments: { ms: 1 }, task: { ttl: -5 } })).error.code).toBe(-32602);
  expect((await call("tasks/get", { taskId: 42 })).error.code).toBe(-32602);
  expect((await call("tasks/get", {})).error.code).toBe(-32602);
  expect((await call("tasks/get", { taskId: "x".repeat(100_000) })).error).toMatchObject({
    code: -32602,
    message: "Failed to retrieve task: Task not found",
  });
  expect((await call("tasks/list", { cursor: 7 })).error.code).toBe(-32602);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++)
    ids.push((await call("tools/call", { name: "work", arguments: { ms: 60_000 }, task: {} })).result.task.taskId);
  const over = await call("tools/call", { name: "work", arguments: { ms: 1 }, task: {} });
  expect(over.error).toMatchObject({ code: -32603 });
  expect(over.error.message).toContain("tasks.maxRunning");
  await call("tasks/cancel", { taskId: ids[0] });
  await Bun.sleep(50);
  expect((await call("tools/call", { name: "work", arguments: { ms: 1 }, task: {} })).result.task.status).toBe(
    "working",
  );
  for (const id of ids.slice(1)) await call("tasks/cancel", { taskId: id });
});

test("tasks/list pages through every task (page size 2), oldest first; a made-up cursor is -32602", async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const r = (await call("tasks/list", cursor ? { cursor } : {})).result;
    expect(r.tasks.length).toBeLessThanOrEqual(2);
    seen.push(...r.tasks.map((t: { taskId: string }) => t.taskId));
    cursor = r.nextCursor;
  } while (cursor);
  expect(seen.length).toBe(9);
  expect(new Set(seen).size).toBe(9);
  expect((await call("tasks/list", { cursor: "bm9wZQ" })).error.code).toBe(-32602);
});
