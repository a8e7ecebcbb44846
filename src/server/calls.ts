/** @module Requests in flight (a handler that returned a promise): time limits, cancellation, shutdown, and the count that backpressure reads. */
import { logLine } from "../runtime/log-name.ts";
import { ErrorCode, errorLine, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import type { RequestContext } from "./context.ts";
import { lineOf, type MethodSpec } from "./method.ts";
import { tracing, type CallOutcomeType } from "../telemetry/state.ts";

/** One request in flight. */
interface InFlight {
  readonly ctx: RequestContext;
  readonly spec: MethodSpec;
  readonly params: unknown;
  settle: (line: string | undefined) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Notes on the request's span how the server ended it (tracing on only). */
  note: ((t: CallOutcomeType) => void) | undefined;
}

/**
 * The requests in flight of one connection, by id. Each ends exactly once: with its result, its
 * time-limit result, its shutdown result, or nothing (cancelled by the client, MCP
 * basic/utilities/cancellation).
 */
export class Calls {
  readonly #inflight = new Map<RequestId, InFlight>();
  #idleWaiters: (() => void)[] = [];

  /** Requests in flight. */
  get size(): number {
    return this.#inflight.size;
  }

  /** Whether a request with this id is in flight (ids must be unique among them). */
  has(id: RequestId): boolean {
    return this.#inflight.size !== 0 && this.#inflight.has(id);
  }

  /**
   * Tracks a pending result until it settles, runs out of time, is cancelled or aborted.
   * @param ctx - the request, its method and checked params set by invoke().
   * @param pending - the handler's promise.
   * @returns the response line, or undefined when cancelled.
   */
  track(ctx: RequestContext, pending: PromiseLike<unknown>): Promise<string | undefined> {
    const spec = ctx.spec!;
    const params = ctx.params;
    const call: InFlight = {
      ctx,
      spec,
      params,
      settle: undefined!,
      timer: undefined,
      note: tracing.on ? tracing.outcome() : undefined,
    };
    this.#inflight.set(ctx.requestId, call);
    return new Promise<string | undefined>((resolve) => {
      call.settle = resolve;
      const limit = spec.timeoutMs?.(params, ctx) ?? 0;
      if (limit > 0) {
        call.timer = setTimeout(() => {
          if (ctx.done) return;
          ctx.abort(new Error(`timed out after ${limit} ms`));
          call.note?.("timeout");
          this.#finish(
            call,
            spec.timedOut
              ? this.#line(call, spec.timedOut(limit, params, ctx))
              : errorLine(
                  ctx.requestId,
                  new RpcError(ErrorCode.InternalError, `The request timed out after ${limit} ms`),
                ),
          );
        }, limit);
      }
      pending.then(
        (result) => {
          if (!ctx.done) this.#finish(call, this.#line(call, result));
        },
        (e: unknown) => {
          if (!ctx.done) this.#finish(call, failureLine(ctx, e));
        },
      );
    });
  }

  /**
   * The client cancelled a request (`notifications/cancelled`, or a closed HTTP connection), or the
   * transport's own time limit ran out: its signal aborts and it gets no response from here.
   * @param id - the request id named by the notification (any value: unknown ids are ignored).
   * @param reason - the client's reason, when given.
   * @param why - `timeout` when the transport's time limit ended it (the span's `error.type`).
   */
  cancel(id: unknown, reason: string | undefined, why: "cancelled" | "timeout" = "cancelled"): void {
    const call = this.#inflight.get(id as RequestId);
    if (!call || call.ctx.done) return;
    call.ctx.abort(new Error(reason !== undefined ? `cancelled: ${reason}` : "cancelled by the client"));
    call.note?.(why);
    this.#finish(call, undefined);
  }

  /**
   * Aborts every request in flight; each still gets its answer (a tool call an isError result).
   * @param reason - the text of each answer.
   */
  abortAll(reason: string): void {
    for (const call of [...this.#inflight.values()]) {
      call.ctx.abort(new Error(reason));
      call.note?.("aborted");
      const { spec, ctx } = call;
      this.#finish(
        call,
        spec.aborted
          ? this.#line(call, spec.aborted(reason, ctx))
          : errorLine(ctx.requestId, new RpcError(ErrorCode.InternalError, reason)),
      );
    }
  }

  /** Resolves when fewer than `limit` requests are in flight (undefined when they already are). */
  belowLimit(limit: number): Promise<void> | undefined {
    if (this.#inflight.size < limit) return undefined;
    return new Promise((resolve) => {
      const check = () => (this.#inflight.size < limit ? resolve() : this.#idleWaiters.push(check));
      this.#idleWaiters.push(check);
    });
  }

  /**
   * Resolves once no request is in flight but long-lived ones (`MethodSpec.longLived`: `subscriptions/listen`
   * streams): a stream does no work that a shutdown should wait for (it ends with its result when {@link abortAll} runs).
   */
  idle(): Promise<void> {
    const quiet = () =>
      this.#inflight.size === 0 || [...this.#inflight.values()].every((c) => c.spec.longLived === true);
    if (quiet()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (quiet() ? resolve() : this.#idleWaiters.push(check));
      this.#idleWaiters.push(check);
    });
  }

  #line(call: InFlight, result: unknown): string {
    try {
      return lineOf(call.spec, call.ctx, result);
    } catch (e) {
      return failureLine(call.ctx, e);
    }
  }

  #finish(call: InFlight, line: string | undefined): void {
    call.ctx.done = true;
    if (call.timer !== undefined) clearTimeout(call.timer);
    this.#inflight.delete(call.ctx.requestId);
    call.settle(line);
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}

/**
 * The error line of a handler that threw or rejected: an RpcError as it is, anything else -32603
 * (its stack on stderr, never to the client).
 * @param ctx - the request.
 * @param e - what was thrown.
 */
export function failureLine(ctx: RequestContext, e: unknown): string {
  if (e instanceof RpcError) return errorLine(ctx.requestId, e);
  logLine(`internal error handling ${ctx.method}: ${(e as Error)?.stack ?? e}`);
  return errorLine(ctx.requestId, new RpcError(ErrorCode.InternalError, "Internal error"));
}

/**
 * Whether a result line is over the server's `maxResultBytes`.
 * @param line - the response line.
 * @param max - the limit in bytes.
 * @returns the line's size in bytes when it is over the limit, else undefined.
 */
export function overLimit(line: string, max: number): number | undefined {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter lines need no byte count.
  if (line.length <= max / 3) return undefined;
  const bytes = Buffer.byteLength(line);
  return bytes > max ? bytes : undefined;
}
