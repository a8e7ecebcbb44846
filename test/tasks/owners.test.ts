/** @module Who a task belongs to, through the real pipeline in-process: the verified caller's issuer and subject together, so one subject name at two trusted issuers is two owners. */
import { expect, test } from "bun:test";
import * as v from "valibot";
import { tool } from "../../src/index.ts";
import { Registry } from "../../src/server/registry.ts";
import { Session } from "../../src/server/dispatcher.ts";
import { enableTasks } from "../../src/tasks/register.ts";
import type { AuthInfo } from "../../src/shared/auth.ts";

const job = tool({ name: "job", description: "a job", input: v.object({}), task: "optional", run: () => "secret" });
const caller = (issuer: string, subject: string): AuthInfo => ({ token: `t-${issuer}`, issuer, subject, scopes: [] });

test("a task of one issuer's subject is neither listed to nor read by the same subject name at another issuer", async () => {
  const options = { name: "owners", version: "1.0.0", tools: [job] };
  enableTasks(options);
  const s = new Session(new Registry(options), () => {});
  let id = 0;
  const rpc = async (method: string, params: unknown, auth?: AuthInfo) =>
    JSON.parse((await s.handleLine(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }), { auth }))!);
  const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
  const alice = caller("https://idp-a.example.com", "alice");
  const mallory = caller("https://idp-b.example.com", "alice");
  await rpc("initialize", init, alice);
  const { task } = (await rpc("tools/call", { name: "job", arguments: {}, task: {} }, alice)).result;
  expect((await rpc("tasks/result", { taskId: task.taskId }, alice)).result.content[0].text).toBe("secret");
  expect((await rpc("tasks/list", {}, alice)).result.tasks.map((t: { taskId: string }) => t.taskId)).toEqual([
    task.taskId,
  ]);

  expect((await rpc("tasks/list", {}, mallory)).result.tasks).toEqual([]);
  expect((await rpc("tasks/get", { taskId: task.taskId }, mallory)).error.code).toBe(-32602);
  expect((await rpc("tasks/result", { taskId: task.taskId }, mallory)).error.code).toBe(-32602);
  expect((await rpc("tasks/cancel", { taskId: task.taskId }, mallory)).error.code).toBe(-32602);
});
