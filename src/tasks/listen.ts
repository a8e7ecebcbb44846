/** @module subscriptions/listen with `taskIds` (MCP 2026-07-28 tasks extension, "Task Status Notifications"): the stream also carries `notifications/tasks`, a DetailedTask per status change. */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { META } from "../protocol/meta.ts";
import { projectResult, type CallResult } from "../protocol/project.ts";
import type { RequestContext } from "../server/context.ts";
import type { MethodSpec } from "../server/method.ts";
import { engineOf, ownerOf } from "./engines.ts";
import { declaresTasks, missingTasksCapability } from "./methods.ts";
import { modernTask, TERMINAL, type TaskRecord } from "./record.ts";

/** The most task ids one stream may follow. */
const MAX_TASK_IDS = 100;

/**
 * Wraps the core's `subscriptions/listen`: `notifications.taskIds` (the caller's own tasks) are acknowledged
 * in `notifications/subscriptions/acknowledged` and followed on the stream, each change a `notifications/tasks`
 * with the full DetailedTask. Only changes made in this process are seen (a task running in another process
 * behind a shared store is followed by polling `tasks/get`). Without `taskIds`: the core's entry as it is.
 * @throws RpcError -32021 for `taskIds` from a request without the extension; -32602 for a malformed list.
 */
export function withTaskNotifications(core: MethodSpec): MethodSpec {
  return {
    ...core,
    handle(p: { notifications?: { taskIds?: unknown } }, ctx: RequestContext) {
      const ids = p?.notifications?.taskIds;
      if (ids === undefined) return core.handle(p, ctx);
      if (!Array.isArray(ids) || ids.length > MAX_TASK_IDS || !ids.every((x) => typeof x === "string")) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params: notifications.taskIds must be an array of at most ${MAX_TASK_IDS} task ids`,
        );
      }
      if (!declaresTasks(ctx)) throw missingTasksCapability("subscriptions/listen with taskIds");
      const engine = engineOf(ctx.connection.registry);
      const owner = ownerOf(ctx);
      const reads = engine ? [...new Set(ids as string[])].map((id) => engine.read(owner, id)) : [];
      return Promise.all(reads).then((found) => {
        const agreed = found.filter((r): r is TaskRecord => r !== undefined).map((r) => r.id);
        // The acknowledgement names the tasks followed (the core writes it; taskIds join its notifications).
        const notify = ctx.notify.bind(ctx);
        ctx.notify = (method, params) => {
          if (method === "notifications/subscriptions/acknowledged")
            params = { ...params, notifications: { ...(params.notifications as object), taskIds: agreed } };
          notify(method, params);
        };
        const stops = agreed.map((id) =>
          engine!.onStatus(id, (r) => {
            const result =
              r.status === "completed" && r.result
                ? projectResult(r.result as unknown as CallResult, ctx.features)
                : undefined;
            ctx.notify("notifications/tasks", {
              ...modernTask(r, true, result),
              _meta: { [META.subscriptionId]: ctx.requestId },
            });
            if (TERMINAL.has(r.status)) stops[agreed.indexOf(id)]?.();
          }),
        );
        ctx.signal.addEventListener("abort", () => stops.forEach((s) => s()), { once: true });
        return core.handle(p, ctx);
      });
    },
  };
}
