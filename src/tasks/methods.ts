/** @module tasks/get, tasks/result, tasks/list, tasks/cancel (MCP 2025-11-25 basic/utilities/tasks) and tasks/get, tasks/update, tasks/cancel (2026-07-28 extension io.modelcontextprotocol/tasks). */
import * as v from "valibot";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { projectResult, type CallResult } from "../protocol/project.ts";
import type { RequestContext } from "../server/context.ts";
import type { MethodSpec } from "../server/method.ts";
import { lazySchema } from "../runtime/once.ts";
import type { TaskEngine } from "./engine.ts";
import { settle } from "./engine.ts";
import { engineOf, ownerOf } from "./engines.ts";
import { legacyTask, modernTask, RELATED_TASK, TASKS_EXTENSION, TERMINAL, type TaskRecord } from "./record.ts";

/** Whether this 2026-07-28 request declared the extension in its client capabilities. */
export function declaresTasks(ctx: RequestContext): boolean {
  const ext = (ctx.clientCapabilities as { extensions?: Record<string, unknown> }).extensions;
  return typeof ext === "object" && ext !== null && ext[TASKS_EXTENSION] !== undefined;
}

/** -32021 for a 2026-07-28 request without the extension (the extension's "Error Handling"). */
export function missingTasksCapability(what: string): RpcError {
  return new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension in the request's client capabilities`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

const TASK_ID = lazySchema(() =>
  v.looseObject(
    {
      taskId: v.pipe(
        v.string('Invalid params: "taskId" must be a string'),
        v.nonEmpty('Invalid params: "taskId" must not be empty'),
      ),
    },
    "Invalid params: needs params {taskId}",
  ),
);
const UPDATE = lazySchema(() =>
  v.looseObject(
    {
      taskId: v.pipe(
        v.string('Invalid params: "taskId" must be a string'),
        v.nonEmpty('Invalid params: "taskId" must not be empty'),
      ),
      inputResponses: v.record(
        v.string(),
        v.unknown(),
        'Invalid params: "inputResponses" must be an object mapping inputRequests keys to results',
      ),
    },
    "Invalid params: tasks/update needs params {taskId, inputResponses}",
  ),
);
const LIST = lazySchema(() =>
  v.nullish(v.looseObject({ cursor: v.optional(v.string('Invalid params: "cursor" must be a string')) }), {}),
);

type TaskIdParams = { taskId: string };

/** The engine and owner of a task request, after the era's gate; the task itself (-32602 when it is not this owner's). */
async function found(
  ctx: RequestContext,
  id: string,
  method: string,
): Promise<{ engine: TaskEngine; owner: string; r: TaskRecord }> {
  if (ctx.era === "modern" && !declaresTasks(ctx)) throw missingTasksCapability(method);
  const engine = engineOf(ctx.connection.registry);
  if (!engine) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (this server has no tasks)`);
  const owner = ownerOf(ctx);
  const r = await engine.read(owner, id);
  if (!r) throw new RpcError(ErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
  return { engine, owner, r };
}

/** The stored result as the version in force carries it. */
function resultFor(r: TaskRecord, ctx: RequestContext): Record<string, unknown> | undefined {
  return r.result === undefined ? undefined : projectResult(r.result as unknown as CallResult, ctx.features);
}

const tasksGet: MethodSpec<TaskIdParams, Record<string, unknown>> = {
  name: "tasks/get",
  eras: ["legacy", "modern"],
  versions: ["2025-11-25"],
  capability: "tasks",
  params: TASK_ID,
  async handle(p, ctx) {
    const { r } = await found(ctx, p.taskId, "tasks/get");
    return ctx.era === "modern" ? modernTask(r, true, resultFor(r, ctx)) : legacyTask(r);
  },
};

/** Waits until a task is terminal: its run in this process, else the store polled at its interval. */
async function terminal(engine: TaskEngine, owner: string, r: TaskRecord, ctx: RequestContext): Promise<TaskRecord> {
  while (!TERMINAL.has(r.status)) {
    if (ctx.signal.aborted) throw new RpcError(ErrorCode.InternalError, "tasks/result was cancelled");
    const run = engine.live.get(r.id);
    if (run) {
      run.addWaiter(ctx);
      try {
        await Promise.race([
          run.ended,
          new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true })),
        ]);
      } finally {
        run.removeWaiter(ctx);
      }
    } else await Bun.sleep(Math.min(r.pollIntervalMs, 1000));
    const next = await engine.read(owner, r.id);
    if (!next) throw new RpcError(ErrorCode.InvalidParams, "Failed to retrieve task: Task has expired");
    r = next;
  }
  return r;
}

const tasksResult: MethodSpec<TaskIdParams, Record<string, unknown>> = {
  name: "tasks/result",
  eras: ["legacy"],
  versions: ["2025-11-25"],
  capability: "tasks",
  params: TASK_ID,
  async handle(p, ctx) {
    const { engine, owner, r: first } = await found(ctx, p.taskId, "tasks/result");
    const r = await terminal(engine, owner, first, ctx);
    // Exactly what the call would have returned: its result, or its JSON-RPC error (basic/utilities/tasks).
    if (r.error) throw new RpcError(r.error.code, r.error.message, r.error.data);
    if (r.status === "cancelled" || r.result === undefined)
      throw new RpcError(ErrorCode.InvalidParams, `Task ${r.id} was cancelled before it finished: it has no result`);
    const out = resultFor(r, ctx)!;
    out._meta = { ...(out._meta as object | undefined), [RELATED_TASK]: { taskId: r.id } };
    return out;
  },
};

/** A page cursor of tasks/list: the position after the last task of the page (createdAt, id). */
const cursorOf = (r: TaskRecord) => Buffer.from(`${r.createdAt}.${r.id}`).toString("base64url");

const tasksList: MethodSpec<{ cursor?: string } | null | undefined, Record<string, unknown>> = {
  name: "tasks/list",
  eras: ["legacy"],
  versions: ["2025-11-25"],
  capability: "tasks",
  params: LIST as v.GenericSchema<unknown, { cursor?: string } | null | undefined>,
  async handle(p, ctx) {
    const engine = engineOf(ctx.connection.registry)!;
    const all = await engine.list(ownerOf(ctx));
    let start = 0;
    if (p?.cursor !== undefined) {
      const m = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(p.cursor, "base64url").toString());
      if (!m || Buffer.from(`${m[1]}.${m[2]}`).toString("base64url") !== p.cursor)
        throw new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown cursor (not one this server issued)");
      const at = Number(m[1]);
      start = all.findIndex((r) => r.createdAt > at || (r.createdAt === at && r.id > m[2]!));
      if (start < 0) start = all.length;
    }
    const size = ctx.connection.registry.options.pageSize ?? 100;
    const items = all.slice(start, start + size);
    const out: Record<string, unknown> = { tasks: items.map(legacyTask) };
    if (start + size < all.length) out.nextCursor = cursorOf(items[items.length - 1]!);
    return out;
  },
};

const tasksCancel: MethodSpec<TaskIdParams, Record<string, unknown>> = {
  name: "tasks/cancel",
  eras: ["legacy", "modern"],
  versions: ["2025-11-25"],
  capability: "tasks",
  params: TASK_ID,
  async handle(p, ctx) {
    const { engine, owner, r } = await found(ctx, p.taskId, "tasks/cancel");
    if (TERMINAL.has(r.status)) {
      // 2026-07-28: the same empty ack (idempotent); 2025-11-25: -32602 for a terminal task.
      if (ctx.era === "modern") return {};
      throw new RpcError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${r.status}'`);
    }
    // Cancelled (and stored) before the response; the run's signal aborts; a run in another process sees it in the store.
    const next =
      (await engine.update(owner, r.id, (x) => settle(x, "cancelled", "The task was cancelled by request"))) ?? r;
    engine.live.get(r.id)?.cancel("cancelled: the task was cancelled (tasks/cancel)");
    return ctx.era === "modern" ? {} : legacyTask(next);
  },
};

const tasksUpdate: MethodSpec<{ taskId: string; inputResponses: Record<string, unknown> }, Record<string, unknown>> = {
  name: "tasks/update",
  eras: ["modern"],
  capability: "tasks",
  params: UPDATE,
  async handle(p, ctx) {
    const { engine, owner, r } = await found(ctx, p.taskId, "tasks/update");
    if (TERMINAL.has(r.status)) return {};
    const run = engine.live.get(r.id);
    const pending = r.inputRequests ?? {};
    if (run) {
      await Promise.all(Object.entries(p.inputResponses).map(([k, value]) => run.answer(k, value)));
    } else {
      // The run is in another process: it takes the answers from the store (keys not outstanding are ignored).
      const answers = Object.fromEntries(Object.entries(p.inputResponses).filter(([k]) => Object.hasOwn(pending, k)));
      if (Object.keys(answers).length > 0) {
        await engine.update(owner, r.id, (x) => {
          x.answers = { ...x.answers, ...answers };
          return true;
        });
      }
    }
    return {};
  },
};

/** The methods the tasks capability adds. */
export const TASK_METHODS: readonly MethodSpec[] = [tasksGet, tasksResult, tasksList, tasksCancel, tasksUpdate];
