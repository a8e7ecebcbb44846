/** @module What each protocol version sees of tasks, through the real pipeline in-process: the capability and execution.taskSupport only at 2025-11-25, the extension only at 2026-07-28, nothing before or without task tools. */
import { expect, test } from "bun:test";
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import { Registry } from "../../src/server/registry.ts";
import { Session } from "../../src/server/dispatcher.ts";
import { enableTasks } from "../../src/tasks/register.ts";

const job = tool({ name: "job", description: "a job", input: v.object({}), task: "optional", run: () => "done" });
const plainTool = tool({ name: "plain", description: "plain", run: () => "plain" });

function session(tools: ReturnType<typeof tool>[]) {
  const options = { name: "v", version: "1.0.0", tools };
  enableTasks(options);
  const s = new Session(new Registry(options), () => {});
  let id = 0;
  return async (method: string, params: unknown) =>
    JSON.parse((await s.handleLine(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })))!);
}
const init = (version: string) => ({
  protocolVersion: version,
  capabilities: {},
  clientInfo: { name: "t", version: "1" },
});
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

test("2025-06-18: no tasks capability, no execution field, and a task param is a plain call", async () => {
  const rpc = session([job]);
  expect((await rpc("initialize", init("2025-06-18"))).result.capabilities.tasks).toBeUndefined();
  expect((await rpc("tools/list", {})).result.tools[0].execution).toBeUndefined();
  const r = (await rpc("tools/call", { name: "job", arguments: {}, task: {} })).result;
  expect(r.task).toBeUndefined();
  expect(r.content).toEqual([{ type: "text", text: "done" }]);
  expect((await rpc("tasks/get", { taskId: "x" })).error.code).toBe(-32601);
});

test("2026-07-28: server/discover lists the extension and no tasks key; tools/list has no execution field", async () => {
  const rpc = session([job]);
  const caps = (await rpc("server/discover", { _meta: META })).result.capabilities;
  expect(caps.tasks).toBeUndefined();
  expect(caps.extensions["io.modelcontextprotocol/tasks"]).toEqual({});
  expect((await rpc("tools/list", { _meta: META })).result.tools[0].execution).toBeUndefined();
});

test("a server without task tools or the tasks option has no tasks at all, in either era", async () => {
  const rpc = session([plainTool]);
  expect((await rpc("initialize", init("2025-11-25"))).result.capabilities.tasks).toBeUndefined();
  expect((await rpc("tasks/get", { taskId: "x" })).error.code).toBe(-32601);
  expect((await rpc("tasks/list", {})).error.code).toBe(-32601);
  const modern = session([plainTool]);
  expect(
    (await modern("server/discover", { _meta: META })).result.capabilities.extensions?.[
      "io.modelcontextprotocol/tasks"
    ],
  ).toBeUndefined();
});

test("2026-07-28 subscriptions/listen with taskIds: acknowledged with the caller's own tasks, then notifications/tasks per change, the result inline", async () => {
  const lines: string[] = [];
  const slow = tool({
    name: "slow",
    description: "slow",
    input: v.object({}),
    task: "optional",
    run: async (_a, ctx) => {
      const r = await ctx.elicit({ key: "go", message: "Go?", schema: v.object({ go: v.boolean() }) });
      return r.action === "accept" ? "went" : "stayed";
    },
  });
  const options = { name: "n", version: "1.0.0", tools: [slow] };
  enableTasks(options);
  const s = new Session(new Registry(options), (line) => lines.push(line));
  const meta = {
    ...META,
    "io.modelcontextprotocol/clientCapabilities": {
      elicitation: {},
      extensions: { "io.modelcontextprotocol/tasks": {} },
    },
  };
  const send = async (id: number, method: string, params: Record<string, unknown>) =>
    JSON.parse(
      (await s.handleLine(JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } })))!,
    );
  const created = (await send(1, "tools/call", { name: "slow", arguments: {} })).result;
  void s.handleLine(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "subscriptions/listen",
      params: { notifications: { taskIds: [created.taskId, "not-mine"] }, _meta: meta },
    }),
  );
  const seen = async (pred: (m: any) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const m = lines.map((l) => JSON.parse(l)).find(pred);
      if (m) return m;
      await Bun.sleep(10);
    }
    throw new Error(`not seen; lines:\n${lines.join("\n")}`);
  };
  const ack = await seen((m) => m.method === "notifications/subscriptions/acknowledged");
  expect(ack.params.notifications.taskIds).toEqual([created.taskId]);
  const asking = await seen((m) => m.method === "notifications/tasks" && m.params.status === "input_required");
  expect(Object.keys(asking.params.inputRequests)).toEqual(["go"]);
  expect(asking.params._meta["io.modelcontextprotocol/subscriptionId"]).toBe(2);
  await send(3, "tasks/update", {
    taskId: created.taskId,
    inputResponses: { go: { action: "accept", content: { go: true } } },
  });
  const done = await seen((m) => m.method === "notifications/tasks" && m.params.status === "completed");
  expect(done.params.result.content).toEqual([{ type: "text", text: "went" }]);
  // Without the extension the same request is -32021.
  const plain = JSON.parse(
    (await s.handleLine(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 4,
        method: "subscriptions/listen",
        params: { notifications: { taskIds: [created.taskId] }, _meta: META },
      }),
    ))!,
  );
  expect(plain.error.code).toBe(-32021);
});
