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
