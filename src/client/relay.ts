/** @module An upstream request's asks relayed to the client in front (roots, sampling, elicitation): legacy as server → client requests, 2026-07-28 as input_required rounds with the upstream call parked between them. */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { AskError } from "../ask/errors.ts";
import { RoundEnded } from "../ask/replay.ts";
import { STATE_TTL_MS } from "../ask/state.ts";
import { prepareForward } from "../ask/forward.ts";
import type { PreparedAsk } from "../ask/requests.ts";
import { OutboundError } from "../server/outbound.ts";
import type { JsonObject, ServerRequestHandler, UnattributedAsks } from "./client.ts";
import type { LoggingLevel } from "../protocol/logging.ts";

/** What the relay needs of the request being served (the server's RequestContext has it). */
export interface RelayContext {
  readonly signal: AbortSignal;
  forward?(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: { readonly key?: string },
  ): Promise<Record<string, unknown>>;
  /** The capabilities of the client in front (a 2026-07-28 upstream is told them per request). */
  readonly clientCapabilities?: Readonly<Record<string, unknown>>;
  /** 2026-07-28: the call's id, the same in every round. */
  readonly callId?: string;
  /** The era and version of the client in front. */
  readonly era?: "legacy" | "modern";
  readonly protocolVersion?: string;
  /** The request's JSON-RPC id. */
  readonly requestId?: string | number;
  /** Sends a log message to the client of this request (filtered by the level it asked for). */
  log?(level: LoggingLevel, data: unknown, logger?: string): void;
  /** The connection the request came on (legacy: the client's session): where an ask no call can claim goes. */
  readonly connection?: {
    readonly outbound: {
      request(
        method: string,
        params: Record<string, unknown> | undefined,
        options: { signal?: AbortSignal; timeoutMs?: number; relatedId?: string | number },
      ): Promise<unknown>;
    };
    readonly registry: { readonly options: { readonly askTimeoutMs: number } };
  };
}

/**
 * How a relayed upstream request starts: with the handler of its own asks, its signal, where its untied asks
 * go, and `current()`: the request being served now (a 2026-07-28 call's current round), undefined while the
 * call waits between rounds with no client to hear it (its log messages then have nowhere to go).
 */
export type RelayRun<T> = (
  onRequest: ServerRequestHandler,
  signal: AbortSignal,
  unattributed: UnattributedAsks | undefined,
  current: () => RelayContext | undefined,
) => Promise<T>;

/** The most upstream calls parked between rounds at once (memory stays bounded). */
export const MAX_PARKED = 256;

/**
 * A parked call whose client has not come back with the input asked for within the server's `askTimeoutMs`
 * (this long when it has none) is abandoned: the upstream call is cancelled, and a later retry runs it again
 * with its earlier answers replayed, ms.
 */
export const ABANDONED_MS = 60_000;

/** An ask that failed in front, as the error the upstream gets: a capability the client lacks is -32601 (what a client without it answers). */
export function upstreamError(method: string, e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  if (e instanceof AskError) {
    if (e.code === "unsupported")
      return new RpcError(
        ErrorCode.MethodNotFound,
        `Method not found: ${method} (${e.message}: the client in front of this proxy did not declare it)`,
      );
    const rpc = e.data as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (e.code === "client-error" && typeof rpc?.code === "number")
      return new RpcError(rpc.code, String(rpc.message ?? e.message), rpc.data);
    return new RpcError(ErrorCode.InternalError, `${method}: ${e.message}`);
  }
  return new RpcError(ErrorCode.InternalError, `${method}: ${(e as Error)?.message ?? String(e)}`);
}

/**
 * Where a legacy client's asks go when the upstream client cannot tie them to one of several calls in
 * flight (stdio upstreams name no request in their requests: src/client/client-types.ts RequestOptions.onRequest):
 * to the client in front as a plain server → client request on its connection, cancelled with none of its
 * requests, so the end or cancellation of another call does not cancel it (over HTTP it rides on the stream of
 * this request, the oldest of them, as a legacy HTTP session of ours has no stream of its own). Every call of the same
 * connection shares this party; calls of other sessions do not, and an ask among those is refused (a
 * question never goes to a user who may not be the one asked). A 2026-07-28 client takes asks only as
 * `input_required` of the request that needs them, so there is none: the upstream gets -32603.
 */
function plainAsks(ctx: RelayContext): UnattributedAsks | undefined {
  const c = ctx.connection;
  const version = ctx.protocolVersion;
  if (ctx.era !== "legacy" || !c || version === undefined) return undefined;
  return {
    party: c,
    async onRequest(method, params, o) {
      let p: PreparedAsk;
      let answer: unknown;
      try {
        p = prepareForward(method, params, version, ctx.clientCapabilities ?? {});
        answer = await c.outbound.request(p.method, p.params, {
          signal: o.signal,
          timeoutMs: c.registry.options.askTimeoutMs,
          relatedId: ctx.requestId,
        });
        return p.finish(answer) as Record<string, unknown>;
      } catch (e) {
        if (e instanceof OutboundError && e.code === "rpc" && e.rpc)
          throw new RpcError(e.rpc.code, e.rpc.message, e.rpc.data);
        throw upstreamError(method, e);
      }
    },
  };
}

/** Forwards each ask through `ctx` at once (legacy eras, or no round). */
function direct(ctx: RelayContext): ServerRequestHandler {
  return async (method, params, o) => {
    if (!ctx.forward)
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (there is no client to forward it to)`);
    try {
      return await ctx.forward(method, params, { key: o.key });
    } catch (e) {
      throw upstreamError(method, e);
    }
  };
}

interface Ask {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly key: string | undefined;
  settled: boolean;
  resolve(answer: unknown): void;
  reject(e: unknown): void;
}

/** One upstream call waiting between the rounds of a 2026-07-28 client: its asks in order, and its end. */
class Parked<T> {
  readonly asks: Ask[] = [];
  readonly ac = new AbortController();
  readonly done: Promise<{ readonly value: T }>;
  #waiters: (() => void)[] = [];
  /** The round being served now; undefined between rounds. */
  #current: RelayContext | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly id: string,
    run: RelayRun<T>,
  ) {
    const onRequest: ServerRequestHandler = (method, params, o) =>
      new Promise((resolve, reject) => {
        this.asks.push({ method, params, key: o.key, settled: false, resolve, reject });
        for (const w of this.#waiters.splice(0)) w();
      });
    this.done = run(onRequest, this.ac.signal, undefined, () => this.#current).then((value) => ({ value }));
    this.done.catch(() => {});
  }

  #ask(i: number): Promise<Ask> {
    const a = this.asks[i];
    if (a) return Promise.resolve(a);
    return new Promise((resolve) => this.#waiters.push(() => resolve(this.#ask(i))));
  }

  /** Ends it (the client cancelled, or never came back): the upstream call is cancelled. */
  drop(reason: unknown): void {
    clearTimeout(this.#timer);
    if (PARKED.get(this.id) === this) PARKED.delete(this.id);
    this.ac.abort(reason);
  }

  /**
   * Serves one round: every ask so far goes through `ctx.forward` in order (answered ones replay from the
   * round's state, the first new one is answered from inputResponses or ends the round), until the call ends.
   */
  async serve(ctx: RelayContext): Promise<T> {
    clearTimeout(this.#timer);
    // The client has as long to come back with the input as an ask has to be answered (askTimeoutMs).
    const limit = ctx.connection?.registry.options.askTimeoutMs || ABANDONED_MS;
    this.#timer = setTimeout(
      () => this.drop(new Error("the client did not come back with the input asked for")),
      Math.min(limit, STATE_TTL_MS),
    );
    this.#timer.unref?.();
    this.#current = ctx;
    ctx.signal.addEventListener(
      "abort",
      () => {
        if (this.#current === ctx) this.#current = undefined;
        if (!(ctx.signal.reason instanceof RoundEnded)) this.drop(ctx.signal.reason);
      },
      { once: true },
    );
    const settle = (a: Ask, ok: boolean, value: unknown) => {
      if (a.settled) return;
      a.settled = true;
      if (ok) a.resolve(value);
      else a.reject(upstreamError(a.method, value));
    };
    try {
      for (let i = 0; ;) {
        const next = await Promise.race([this.done, this.#ask(i)]);
        if ("value" in next) {
          this.drop(undefined);
          return next.value;
        }
        // Every ask waiting now goes in this turn, so asks made together are asked in one round.
        for (const a of this.asks.slice(i)) {
          ctx.forward!(a.method, a.params, { key: a.key }).then(
            (answer) => settle(a, true, answer),
            (e: unknown) => settle(a, false, e),
          );
        }
        i = this.asks.length;
      }
    } catch (e) {
      this.drop(e);
      throw e;
    }
  }
}

const PARKED = new Map<string, Parked<unknown>>();

/**
 * Runs one upstream request (tools/call, prompts/get, resources/read) whose asks go to the client in
 * front. Legacy client, or none: each ask is forwarded as it arrives and answered. 2026-07-28 client: the
 * first ask ends the round with `input_required`; the upstream call stays parked (by the round's call id,
 * at most {@link MAX_PARKED}, at most 10 minutes) and the client's retry resumes it with the answer, so
 * the upstream call runs once whatever the number of rounds. A parked call is abandoned after the
 * server's `askTimeoutMs` without its client ({@link ABANDONED_MS}).
 * @param ctx - the request being served.
 * An ask the upstream client cannot tie to this request (several in flight on one stdio upstream) goes
 * to a legacy client as a plain request ({@link plainAsks}); a 2026-07-28 client never gets it.
 * @param run - starts the upstream request with the given ask handler, signal and untied-ask handler.
 * @returns what `run` returns.
 */
export function relay<T>(ctx: RelayContext, run: RelayRun<T>): Promise<T> {
  const id = ctx.callId;
  if (id === undefined || !ctx.forward) return run(direct(ctx), ctx.signal, plainAsks(ctx), () => ctx);
  let parked = PARKED.get(id) as Parked<T> | undefined;
  if (!parked) {
    // Too many waiting: this call is not parked; a retry runs it again, its earlier answers replayed in order.
    if (PARKED.size >= MAX_PARKED) return run(direct(ctx), ctx.signal, undefined, () => ctx);
    parked = new Parked(id, run);
    PARKED.set(id, parked as Parked<unknown>);
  }
  return parked.serve(ctx);
}

/** How many upstream calls are parked now (tests). */
export function parkedCount(): number {
  return PARKED.size;
}
