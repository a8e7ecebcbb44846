/** @module connect()'s tasks against a compiled executable, in both eras: call a tool as a task, poll it with progress, answer its question, cancel it, wait for its result. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type McpClient } from "../../src/index.ts";
import { compileFixture } from "../helpers/proc.ts";

let bin: string;
const open: McpClient[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/tasks.ts", "tasks-client");
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => {});
});

for (const era of ["legacy", "modern"] as const) {
  test(`${era}: call as a task, poll to the result (equal to the plain call's), answer a question, cancel`, async () => {
    const c = await connect({ command: bin }, { era, capabilities: { elicitation: {} } });
    open.push(c);
    expect(c.tasks.supported).toBe(true);
    const plain = await c.callTool("work", { ms: 200, steps: 2, text: "x" });
    const made = await c.tasks.call("work", { ms: 200, steps: 2, text: "x" }, { ttlMs: 60_000 });
    if (!("task" in made)) throw new Error("no task was created");
    expect(made.task.status).toBe("working");
    expect(made.task.ttlMs).toBe(era === "legacy" ? 60_000 : 600_000);
    const seen: string[] = [];
    const r = await c.tasks.result(made.task.taskId, { onStatus: (t) => seen.push(t.status) });
    const { resultType: _a, _meta: _b, ...plainBody } = plain as Record<string, unknown>;
    const { resultType: _c, _meta: _d, ...body } = r as Record<string, unknown>;
    expect(body).toEqual(plainBody);
    expect(body.structuredContent).toEqual({ text: "x", ms: 200 });
    expect(seen[0]).toBe("working");

    const asking = await c.tasks.call("confirm", {});
    if (!("task" in asking)) throw new Error("no task was created");
    const answered = await c.tasks.result(asking.task.taskId, {
      onRequest: async (method, params) => (
        expect(method).toBe("elicitation/create"),
        expect(params?.message).toBe("Proceed?"),
        { action: "accept", content: { ok: true } }
      ),
    });
    expect(answered.content).toEqual([{ type: "text", text: "confirmed" }]);

    const long = await c.tasks.call("work", { ms: 60_000 });
    if (!("task" in long)) throw new Error("no task was created");
    await c.tasks.cancel(long.task.taskId);
    expect((await c.tasks.get(long.task.taskId)).status).toBe("cancelled");
    await c.tasks.cancel(long.task.taskId); // already cancelled: no error
    await expect(c.tasks.result(long.task.taskId)).rejects.toThrow();
    // A tool that forbids tasks: the server answers the plain way at 2026-07-28, with -32601 at 2025-11-25.
    if (era === "modern")
      expect(await c.tasks.call("plain", {})).toEqual({
        result: expect.objectContaining({ content: [{ type: "text", text: "plain" }] }),
      });
    else await expect(c.tasks.call("plain", {})).rejects.toThrow(/does not run as a task/);
  });
}

test("over Streamable HTTP in both eras: a task's question reaches the client (2025-11-25: on the tasks/result stream) and its answer completes the task", async () => {
  const { HttpProcess } = await import("../http/helpers.ts");
  const h = await HttpProcess.start([bin]);
  try {
    for (const era of ["legacy", "modern"] as const) {
      const c = await connect({ url: h.url }, { era, capabilities: { elicitation: {} } });
      open.push(c);
      const made = await c.tasks.call("confirm", {});
      if (!("task" in made)) throw new Error("no task was created");
      const asked: string[] = [];
      const r = await c.tasks.result(made.task.taskId, {
        onRequest: async (method) => (asked.push(method), { action: "accept", content: { ok: true } }),
      });
      expect(asked).toEqual(["elicitation/create"]);
      expect(r.content).toEqual([{ type: "text", text: "confirmed" }]);
    }
  } finally {
    h.kill();
  }
});
