/** @module 2026-07-28 multi round-trip requests in the server: a round per request that may ask (tools/call, prompts/get, resources/read), its race against the first unanswered ask, and its errors. */
import { AskError } from "./errors.ts";
import { InputRequired, modernAsker, RoundEnded, type ModernAsker } from "./replay.ts";
import { ErrorCode, resultLine, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import { tracing } from "../telemetry/state.ts";
import type { RequestContext } from "../server/context.ts";
import "./context.ts";

export { InputRequired };

/**
 * The round of one request. Its asker (which verifies the retry fields, draws the call id and holds
 * the promise the round ends with) is made at once when there is a `requestState` or `inputResponses`
 * to verify (or tracing names the round), else on the first ask: most calls never ask, and a call
 * that does not pays nothing for it (docs/benchmarks.md).
 */
class Round {
  asker: ModernAsker | undefined = undefined;
  /** Set by raceRound while the asker is not made yet: told when it is. */
  onAsker: ((a: ModernAsker) => void) | undefined = undefined;
  constructor(
    readonly ctx: RequestContext,
    readonly binding: { method: string; name: string; args: unknown },
    readonly retry: { requestState?: unknown; inputResponses?: unknown },
  ) {}

  make(): ModernAsker {
    const ctx = this.ctx;
    const a = (this.asker = modernAsker(ctx.features.version, ctx.clientCapabilities, this.binding, this.retry));
    this.onAsker?.(a);
    return a;
  }
}

/** The round of a request is kept on its context (a field, not a WeakMap entry per call). */
const roundOf = (ctx: RequestContext): Round | undefined => ctx.round as Round | undefined;

/**
 * Starts the round of a 2026-07-28 request that may ask (MCP basic/patterns/mrtr): verifies its
 * `requestState`, takes its `inputResponses`, and makes `ctx.elicit`/`sample`/`roots` answer from them.
 * Does nothing for a legacy request.
 * @param ctx - the request.
 * @param binding - its method, the name it targets (tool, prompt, resource URI) and its arguments as sent.
 * @param retry - its params (`requestState`, `inputResponses`).
 * @throws RpcError -32602 for a bad `requestState` or `inputResponses`.
 */
export function beginRound(
  ctx: RequestContext,
  binding: { method: string; name: string; args: unknown },
  retry: { requestState?: unknown; inputResponses?: unknown },
): void {
  if (ctx.era !== "modern") return;
  const round = new Round(ctx, binding, retry);
  ctx.round = round;
  if (retry.requestState === undefined && retry.inputResponses === undefined && !tracing.on) {
    ctx.askLater(round);
    return;
  }
  const asker = round.make();
  ctx.asker = asker;
  if (tracing.on) tracing.round(asker.callId, asker.round);
}

/**
 * Races what a handler's author code returned against the round's end: the first unanswered ask
 * ends it with {@link InputRequired} (and aborts `ctx.signal`: the suspended code waits for good).
 * @param ctx - the request (a legacy one passes `pending` through).
 * @param pending - the author code's promise.
 * @returns its value, or the InputRequired of the round; rejects with the round's RpcError or AskError.
 */
export function raceRound<T>(ctx: RequestContext, pending: PromiseLike<T>): PromiseLike<T | InputRequired> {
  const round = roundOf(ctx);
  if (!round) return pending;
  if (round.asker) return raceAsker(ctx, pending, round.asker);
  // Not asked yet: the asker made by a later ask joins the race then.
  return new Promise<T | InputRequired>((resolve, reject) => {
    let settled = false;
    pending.then(
      (x) => {
        settled = true;
        resolve(x);
      },
      (e: unknown) => {
        settled = true;
        reject(e);
      },
    );
    round.onAsker = (a) => {
      a.stopped.then(
        (x) => {
          if (settled) return;
          settled = true;
          ctx.abort(new RoundEnded());
          resolve(x);
        },
        (e: unknown) => {
          if (settled) return;
          settled = true;
          reject(e);
        },
      );
    };
  });
}

function raceAsker<T>(
  ctx: RequestContext,
  pending: PromiseLike<T>,
  asker: ModernAsker,
): PromiseLike<T | InputRequired> {
  return Promise.race([pending, asker.stopped]).then((x) => {
    if (x instanceof InputRequired) ctx.abort(new RoundEnded());
    return x;
  });
}

/**
 * What a failure of author code is on the wire when it is not the author's own: the round's RpcError
 * as it is, and at 2026-07-28 an uncaught `unsupported` AskError as -32021 MissingRequiredClientCapability
 * (MCP 2026-07-28 basic/index) with `data.requiredCapabilities`.
 * @param e - what the author code threw.
 * @param ctx - the request.
 * @throws RpcError in those two cases; returns otherwise (the caller makes its isError result).
 */
export function rethrowWire(e: unknown, ctx: RequestContext): void {
  if (e instanceof RpcError) throw e;
  if (e instanceof AskError && e.code === "unsupported" && ctx.era === "modern") {
    throw new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${e.message}`, {
      requiredCapabilities: e.data ?? {},
    });
  }
}

/**
 * The response line of an InputRequiredResult (no cache hints: MCP 2026-07-28 server/utilities/caching covers complete results).
 * @param id - the request's id.
 * @param r - the round's end.
 * @param ctx - the request (for the server's `_meta`).
 */
export function inputRequiredLine(id: RequestId, r: InputRequired, ctx: RequestContext): string {
  return resultLine(id, r.toResult(ctx.connection.registry.modernMeta));
}
