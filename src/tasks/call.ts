/** @module tools/call with tasks: a call made a task (2025-11-25 when the client asks with `task`; 2026-07-28 when the server decides, for a client that declared the extension), answered with the created task at once. */
import { ErrorCode, resultLine, RpcError } from "../protocol/jsonrpc.ts";
import type { RequestContext } from "../server/context.ts";
import "./context.ts";
import type { MethodSpec } from "../server/method.ts";
import { beginRound, InputRequired, raceRound } from "../ask/rounds.ts";
import type { Tool } from "../tools/types.ts";
import type { TaskEngine } from "./engine.ts";
import { engineOf, ownerOf } from "./engines.ts";
import { declaresTasks, missingTasksCapability } from "./methods.ts";
import { legacyTask, modernTask, type TaskRecord } from "./record.ts";
import { execute, runOn, startRun } from "./run.ts";
import type { Outcome } from "./live.ts";

/** What a tools/call answers when it created a task. */
export class TaskCreated {
  constructor(readonly record: TaskRecord) {}
}

type CallParams = {
  name: string;
  arguments?: Record<string, unknown> | null;
  task?: unknown;
  requestState?: unknown;
  inputResponses?: unknown;
};

/**
 * Wraps the core's `tools/call` entry: a call of a tool with `task: "optional" | "required"` may become a
 * task; every other call is the core's.
 * @param core - the entry in force.
 * @returns the entry to use.
 */
export function withTasks(core: MethodSpec): MethodSpec {
  return {
    ...core,
    handle(p: CallParams, ctx: RequestContext) {
      const t = ctx.connection.registry.tools.get(p.name) as Tool | undefined;
      const support = t?.definition.task ?? "forbidden";
      const engine = engineOf(ctx.connection.registry);
      if (!t || !engine) return core.handle(p, ctx);
      if (support === "forbidden") {
        // 2025-11-25 "Tool-Level Negotiation": -32601 for a task of a tool that forbids them (2026-07-28 ignores the param).
        if (ctx.era === "legacy" && p.task !== undefined && ctx.features.version === "2025-11-25")
          throw new RpcError(
            ErrorCode.MethodNotFound,
            `Tool ${t.name} does not run as a task (execution.taskSupport "forbidden"): call it without params.task`,
          );
        return core.handle(p, ctx);
      }
      const args = p.arguments ?? {};
      if (ctx.era === "legacy") {
        // MCP 2025-11-25 basic/utilities/tasks "Tool-Level Negotiation" (earlier versions have no tasks: a plain call).
        if (ctx.features.version !== "2025-11-25") return core.handle(p, ctx);
        if (p.task === undefined) {
          if (support === "required")
            throw new RpcError(
              ErrorCode.MethodNotFound,
              `Task augmentation required: call tool ${t.name} as a task (params.task, e.g. {"ttl": 60000})`,
            );
          return core.handle(p, ctx);
        }
        if (typeof p.task !== "object" || p.task === null || Array.isArray(p.task))
          throw new RpcError(
            ErrorCode.InvalidParams,
            'Invalid params: "task" must be an object such as {"ttl": 60000}',
          );
        const ttl = (p.task as { ttl?: unknown }).ttl;
        if (ttl !== undefined && ttl !== null && !(typeof ttl === "number" && ttl > 0))
          throw new RpcError(
            ErrorCode.InvalidParams,
            'Invalid params: "task.ttl" must be a positive number of milliseconds',
          );
        const owner = ownerOf(ctx);
        checkRunning(engine, owner);
        return engine.create(owner, "legacy", t.name, typeof ttl === "number" ? ttl : undefined).then((r) => {
          startRun(engine, owner, r, t, args, ctx);
          return new TaskCreated(r);
        });
      }
      // 2026-07-28: only for a request that declares the extension; a required tool is then always a task.
      if (!declaresTasks(ctx)) {
        if (support === "required") throw missingTasksCapability(`tool ${t.name} runs only as a task: it`);
        return core.handle(p, ctx);
      }
      const owner = ownerOf(ctx);
      checkRunning(engine, owner);
      if (t.definition.deferTask !== true) {
        return engine.create(owner, "modern", t.name).then((r) => {
          startRun(engine, owner, r, t, args, ctx);
          return new TaskCreated(r);
        });
      }
      return deferred(engine, owner, t, args, p, ctx);
    },
    line(id, r, ctx) {
      if (!(r instanceof TaskCreated)) return core.line ? core.line(id, r, ctx) : resultLine(id, r);
      if (ctx.era === "legacy") return resultLine(id, { task: legacyTask(r.record) });
      return resultLine(id, {
        resultType: "task",
        ...modernTask(r.record, false),
        _meta: ctx.connection.registry.modernMeta,
      });
    },
  };
}

/**
 * A `deferTask` tool at 2026-07-28: a plain call (its asks are input_required rounds of the call) until `run`
 * calls ctx.startTask(); then the task is stored, the client gets it, and the run goes on as the task.
 */
function deferred(
  engine: TaskEngine,
  owner: string,
  t: Tool,
  args: object,
  p: CallParams,
  ctx: RequestContext,
): Promise<unknown> {
  beginRound(ctx, { method: "tools/call", name: t.name, args }, p);
  let created!: (r: TaskRecord) => void;
  const started = new Promise<TaskRecord>((resolve) => (created = resolve));
  let running: Promise<Outcome> | undefined;
  ctx.taskStarter = async () => {
    if (ctx.taskId !== undefined) return;
    const r = await engine.create(owner, "modern", t.name);
    runOn(engine, owner, r, t, args, ctx, running);
    created(r);
  };
  running = execute(t, args, ctx);
  const plain = raceRound(ctx, running);
  return Promise.race([plain, started]).then((x) => {
    if (x instanceof InputRequired) return x;
    if (ctx.taskId !== undefined) return new TaskCreated(x as TaskRecord);
    const o = x as Outcome;
    if ("error" in o) throw new RpcError(o.error.code, o.error.message, o.error.data);
    return o.result;
  });
}

/** Refuses one more task for an owner at the `maxRunning` limit (MCP 2025-11-25 tasks "Resource Management"). */
function checkRunning(engine: TaskEngine, owner: string): void {
  const max = engine.config.maxRunning;
  if (engine.running(owner) >= max)
    throw new RpcError(
      ErrorCode.InternalError,
      `Too many tasks running: ${max} of this client's are still running (tasks.maxRunning); wait for some to finish or cancel them`,
    );
}
