/** @module The tracing switch the pipeline reads: one boolean while tracing is off, the span wrapper and hooks once it is on. */
import type { Message, Reply } from "../protocol/jsonrpc.ts";
import type { CallResult } from "../protocol/project.ts";

/** What the span of a message may read of the connection it arrived on (never the pipeline itself). */
export interface TraceScope {
  /** The legacy version negotiated, once it has been (read after the message is handled). */
  readonly version: string | undefined;
  /**
   * The target of a message's span, as the capability that owns its method names it (e.g. a tool the server has),
   * or undefined: the span is then named by the method alone.
   */
  spanTarget(method: string, params: unknown): string | undefined;
}

/** The pipeline stage a span wraps: one message in, its reply out. */
export type MessageHandler<X> = (msg: Message, extras: X) => Reply;

/**
 * The hooks the dispatcher calls, each behind `tracing.on` so that with tracing off the hot path
 * costs one property read: no allocation, no closure, no module beyond this one.
 */
export interface TracingHooks {
  /** True once {@link TracingHooks.message} and the rest trace (set by the telemetry start-up). */
  on: boolean;
  /**
   * Wraps the handling of one valid message in its SERVER span: runs `handle(msg, extras)` with the
   * span active and ends the span when the reply settles.
   */
  message<X>(msg: Message, handle: MessageHandler<X>, extras: X, scope: TraceScope): Reply;
  /** Notes a `tools/call` result on the active MCP span (`error.type=tool_error` for `isError`). */
  toolResult(result: CallResult): void;
  /** Notes that the arguments of the active `tools/call` failed the input schema (a caller's mistake). */
  invalidArguments(): void;
  /** Notes one 2026-07-28 round of a call that asks: `mcpbin.call.id` links the rounds' spans, `mcpbin.call.round` counts from 1. */
  round(callId: string, round: number): void;
  /**
   * For a request in flight: a function that later notes on its MCP span how it ended when the server
   * ended it otherwise than with the handler's value (`error.type` `timeout`, `cancelled`, `aborted`,
   * `result_too_large`), callable from outside the span's context (a timer, a cancel notification's
   * span, the shutdown). Undefined when no MCP span is active.
   */
  outcome(): ((errorType: CallOutcomeType) => void) | undefined;
  /**
   * A call that became a task (src/tasks/): notes `mcpbin.task.id` on the active (creating) span and starts the
   * run's own span under it, which outlives the creating request. Undefined when no MCP span is active.
   */
  task(taskId: string, tool: string): TaskSpan | undefined;
}

/** The span of a task's run. */
export interface TaskSpan {
  /** Runs `fn` with the run's span active (the tool's own spans nest under it). */
  run<T>(fn: () => T): T;
  /** Ends the span with the task's final status (`error.type` for failed and cancelled). */
  end(status: string): void;
}

/** How the server ended a request in flight, as the span's `error.type` (OpenTelemetry MCP conventions: "other failures … follow the generic rules"). */
export type CallOutcomeType = "timeout" | "cancelled" | "aborted" | "result_too_large";

function off<X>(msg: Message, handle: MessageHandler<X>, extras: X): Reply {
  return handle(msg, extras);
}
function nothing(): void {}
function none(): undefined {
  return undefined;
}

/** The process-wide switch; mutated only by `src/telemetry/start.ts` (and tests). */
export const tracing: TracingHooks = {
  on: false,
  message: off,
  toolResult: nothing,
  invalidArguments: nothing,
  round: nothing,
  outcome: none,
  task: none,
};

/** Turns tracing off again (tests, or when setting up the SDK failed); spans already open still end. */
export function resetTracing(): void {
  tracing.on = false;
  tracing.message = off;
  tracing.toolResult = nothing;
  tracing.invalidArguments = nothing;
  tracing.round = nothing;
  tracing.outcome = none;
  tracing.task = none;
}
