/** @module The tracing switch the dispatcher reads: one boolean while tracing is off, the span hooks once it is on. */
import type { Message } from "../protocol/jsonrpc.ts";
import type { CallResult } from "../protocol/project.ts";
import type { Reply, Session } from "../server/dispatcher.ts";

/**
 * The hooks the dispatcher calls, each behind `tracing.on` so that with tracing off the hot path
 * costs one property read: no allocation, no closure, no module beyond this one.
 */
export interface TracingHooks {
  /** True once {@link TracingHooks.message} and the rest trace (set by the telemetry start-up). */
  on: boolean;
  /**
   * Handles one valid message inside its SERVER span: calls `session.handleMessage(msg, true)` with
   * the span active and ends the span when the reply settles.
   */
  message(session: Session, msg: Message): Reply;
  /** Notes a `tools/call` result on the active MCP span (`error.type=tool_error` for `isError`). */
  toolResult(result: CallResult): void;
  /** Notes that the arguments of the active `tools/call` failed the input schema (a caller's mistake). */
  invalidArguments(): void;
}

function off(session: Session, msg: Message): Reply {
  return session.handleMessage(msg, true);
}
function nothing(): void {}

/** The process-wide switch; mutated only by `src/telemetry/start.ts` (and tests). */
export const tracing: TracingHooks = { on: false, message: off, toolResult: nothing, invalidArguments: nothing };

/** Turns tracing off again (tests, or when setting up the SDK failed); spans already open still end. */
export function resetTracing(): void {
  tracing.on = false;
  tracing.message = off;
  tracing.toolResult = nothing;
  tracing.invalidArguments = nothing;
}
