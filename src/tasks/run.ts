/** @module Running a tool as a task: the call's arguments checked and its value shaped as a plain tools/call would, the outcome stored when it ends. */
import { logLine } from "../runtime/log-name.ts";
import { AskError } from "../ask/errors.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { errorResult, invalidArgumentsText, shapeResult, thrownText } from "../tools/call.ts";
import { overLimit } from "../server/calls.ts";
import { RequestContext } from "../server/context.ts";
import { outputOf } from "../tools/schemas.ts";
import type { Tool } from "../tools/types.ts";
import { jsonValidationReady, loadAjv, parseArguments, usesJsonSchemaValidation } from "../tools/validate.ts";
import { tracing } from "../telemetry/state.ts";
import { TaskAsker } from "./asker.ts";
import type { TaskEngine } from "./engine.ts";
import { LiveRun, type Outcome } from "./live.ts";
import type { TaskRecord } from "./record.ts";

/**
 * Runs a tool to its outcome, as `tools/call` would answer it: bad arguments and a thrown error are isError
 * results; a JSON-RPC error (an RpcError thrown, an ask the client cannot answer at 2026-07-28) is the error.
 * @param t - the tool.
 * @param args - the call's arguments.
 * @param ctx - the context it runs with.
 */
export async function execute(t: Tool, args: object, ctx: RequestContext): Promise<Outcome> {
  const ok = (r: object): Outcome => ({
    result: r as Record<string, unknown>,
    isError: (r as { isError?: boolean }).isError === true,
  });
  try {
    if (usesJsonSchemaValidation(t) && !jsonValidationReady(t)) await loadAjv();
    const parsed = parseArguments(t, args);
    if (typeof t.definition.output === "function") outputOf(t);
    if (!parsed.ok) return ok(errorResult(invalidArgumentsText(t, parsed.issues)));
    const value = await t.definition.run(parsed.value as never, ctx);
    const shaped = shapeResult(t, value, ctx.connection.registry.options.json);
    // The server's maxResultBytes holds for a task's stored result as for a plain call's response.
    const max = ctx.connection.registry.options.maxResultBytes;
    const bytes = overLimit(JSON.stringify(shaped), max);
    if (bytes !== undefined)
      return ok(
        errorResult(
          `The result of this call is ${bytes} bytes, over the server's limit of ${max} bytes (maxResultBytes)`,
        ),
      );
    return ok(shaped);
  } catch (e) {
    if (e instanceof RpcError) return { error: wireError(e) };
    if (e instanceof AskError && e.code === "unsupported" && ctx.era === "modern") {
      return {
        error: {
          code: ErrorCode.MissingRequiredClientCapability,
          message: `Missing required client capability: ${e.message}`,
          data: { requiredCapabilities: e.data ?? {} },
        },
      };
    }
    // A cancelled task's tool stopping with the abort reason is no news.
    if (ctx.signal.aborted && e === ctx.signal.reason) return ok(errorResult(thrownText(t, e)));
    let detail: string;
    try {
      detail = String((e as Error)?.stack ?? e);
    } catch {
      detail = "(a value that cannot be printed)";
    }
    logLine(`tool ${t.name} threw (task ${ctx.taskId}): ${detail}`);
    return ok(errorResult(thrownText(t, e)));
  }
}

function wireError(e: RpcError): { code: number; message: string; data?: unknown } {
  return e.data === undefined
    ? { code: e.code, message: e.message }
    : { code: e.code, message: e.message, data: e.data };
}

/**
 * Starts a task's run in the background on its own context (the creating request is answered at once): its
 * signal is the task's, its asks are the task's (TaskAsker), its progress keeps the creating request's token.
 * @param engine - the server's tasks.
 * @param owner - the task's owner.
 * @param record - the task, stored.
 * @param t - the tool.
 * @param args - the arguments.
 * @param creating - the request that created it.
 */
export function startRun(
  engine: TaskEngine,
  owner: string,
  record: TaskRecord,
  t: Tool,
  args: object,
  creating: RequestContext,
): LiveRun {
  const ctx = new RequestContext(
    creating.connection,
    `mcpbin-task-${record.id}`,
    "tools/call",
    creating.era,
    creating.features,
    creating.meta,
    creating,
  );
  return runOn(engine, owner, record, t, args, ctx, undefined);
}

/**
 * Makes a context the task's and runs (or, with `running`, goes on running) the tool on it.
 * @param running - the tool's run already under way (a `deferTask` tool that called ctx.startTask()).
 */
export function runOn(
  engine: TaskEngine,
  owner: string,
  record: TaskRecord,
  t: Tool,
  args: object,
  ctx: RequestContext,
  running: Promise<Outcome> | undefined,
): LiveRun {
  ctx.taskId = record.id;
  const run = new LiveRun(engine, owner, record, ctx, record.era === "legacy" ? ctx.connection : undefined);
  ctx.asker = new TaskAsker(run, ctx.features.version, ctx.clientCapabilities);
  // Tracing: the creating call's span gets the task id, the run a span of its own (it outlives the request).
  const span = tracing.on ? tracing.task(record.id, t.name) : undefined;
  const outcome = running ?? (span ? span.run(() => execute(t, args, ctx)) : execute(t, args, ctx));
  outcome
    .then(
      (o) => run.finish(o),
      (e: unknown) =>
        run.finish({
          error: { code: ErrorCode.InternalError, message: `Internal error: ${(e as Error)?.message ?? e}` },
        }),
    )
    .then(() => span?.end(run.record.status));
  return run;
}
