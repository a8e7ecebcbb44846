/** @module docs/tasks.md's server example, as written there: built with `mcpbin build` and driven over stdio in both eras (a task that reports progress, asks, and answers). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { buildExample, removeExamples } from "../docs/examples.ts";
import { INITED, McpProcess } from "../helpers/proc.ts";

let bin: string;
let dir: string;
beforeAll(async () => {
  ({ dir, bin } = await buildExample("tasks", ["tasks-server.ts", "--outfile", "dist/reports"], "dist/reports"));
});
afterAll(removeExamples);

test("2025-11-25: the task reports progress, its question comes through tasks/result, and the result follows", async () => {
  const p = new McpProcess([bin], { env: { REPORTS_TASKS: join(dir, "tasks-legacy") } });
  try {
    p.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "t", version: "1" },
      },
    });
    expect((await p.response(1)).result.capabilities.tasks.requests).toEqual({ tools: { call: {} } });
    p.send(INITED);
    const { task } = (
      await p.request(
        "tools/call",
        { name: "build_report", arguments: { month: "May" }, task: { ttl: 60_000 }, _meta: { progressToken: 7 } },
        2,
      )
    ).result;
    expect(task).toMatchObject({ status: "working", ttl: 60_000 });
    p.send({ jsonrpc: "2.0", id: 3, method: "tasks/result", params: { taskId: task.taskId } });
    const ask = await p.waitFor((m) => m.method === "elicitation/create");
    expect(ask.params.message).toBe("Publish the May report?");
    expect((await p.request("tasks/get", { taskId: task.taskId }, 4)).result.status).toBe("input_required");
    p.send({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { publish: true } } });
    const r = (await p.response(3)).result;
    expect(r.content).toEqual([{ type: "text", text: "Report for May: published" }]);
    expect(p.messages.filter((m) => m.method === "notifications/progress").map((m) => m.params.message)).toEqual([
      "collect",
      "aggregate",
      "render",
    ]);
    expect(readdirSync(join(dir, "tasks-legacy")).length).toBeGreaterThan(0);
  } finally {
    p.kill();
  }
});

test("2026-07-28: the server makes the call a task; tasks/get shows the question, tasks/update answers it, tasks/get has the result", async () => {
  const p = new McpProcess([bin], { env: { REPORTS_TASKS: join(dir, "tasks-modern") } });
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {
      elicitation: {},
      extensions: { "io.modelcontextprotocol/tasks": {} },
    },
  };
  let id = 10;
  const rpc = async (method: string, params: Record<string, unknown>) =>
    (await p.request(method, { ...params, _meta }, ++id)).result;
  const poll = async (taskId: string, status: string) => {
    for (let i = 0; i < 600; i++) {
      const r = await rpc("tasks/get", { taskId });
      if (r.status === status) return r;
      await Bun.sleep(25);
    }
    throw new Error(`never ${status}`);
  };
  try {
    const created = await rpc("tools/call", { name: "build_report", arguments: { month: "June" } });
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 1000 });
    const waiting = await poll(created.taskId, "input_required");
    expect(waiting.inputRequests.publish.method).toBe("elicitation/create");
    expect(
      await rpc("tasks/update", {
        taskId: created.taskId,
        inputResponses: { publish: { action: "accept", content: { publish: false } } },
      }),
    ).toMatchObject({ resultType: "complete" });
    const done = await poll(created.taskId, "completed");
    expect(done.result.content).toEqual([{ type: "text", text: "Report for June: kept as a draft" }]);
  } finally {
    p.kill();
  }
});
