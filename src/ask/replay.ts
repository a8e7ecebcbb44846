/**
 * @module The 2026-07-28 multi round-trip runner (MCP basic/patterns/mrtr): the tool runs, each ask is
 * answered from the replayed answers when it can be, and the first unanswered one ends the round with
 * `input_required`, its `inputRequests` and a new signed `requestState`.
 */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { checkAnswer, type AskKind } from "./answers.ts";
import { AskError } from "./errors.ts";
import { prepareElicit, prepareRoots, prepareSample, type PreparedAsk } from "./requests.ts";
import { askKindOf, prepareForward } from "./forward.ts";
import {
  argumentsDigest,
  decodeState,
  encodeState,
  MAX_STATE_BYTES,
  STATE_TTL_MS,
  type StateBinding,
  type StatePayload,
} from "./state.ts";
import type * as v from "valibot";
import type {
  Asker,
  ElicitFormRequest,
  ElicitFormResult,
  ElicitObjectSchema,
  ElicitUrlRequest,
  ElicitUrlResult,
  Root,
  RootsRequest,
  SampleRequest,
  SampleResult,
} from "./types.ts";

/** What a round ends with when the tool needs more input: the body of an InputRequiredResult. */
export class InputRequired {
  constructor(
    readonly inputRequests: Record<string, { method: string; params: Record<string, unknown> }>,
    readonly requestState: string,
  ) {}

  /** The InputRequiredResult (no cache hints: MCP 2026-07-28 server/utilities/caching covers complete results only). */
  toResult(meta?: Record<string, unknown>): Record<string, unknown> {
    const r: Record<string, unknown> = {
      resultType: "input_required",
      inputRequests: this.inputRequests,
      requestState: this.requestState,
    };
    if (meta !== undefined) r._meta = meta;
    return r;
  }
}

/** The retry fields of a request that may ask (`tools/call`, `prompts/get`, `resources/read`). */
export interface RetryParams {
  readonly requestState?: unknown;
  readonly inputResponses?: unknown;
}

const NEVER = new Promise<never>(() => {});

/** The reason `ctx.signal` aborts with when a round ends with input_required (the request goes on in the client's retry). */
export class RoundEnded extends Error {
  constructor() {
    super("input required: the request continues on the client's retry");
    this.name = "RoundEnded";
  }
}

/**
 * The asker of one 2026-07-28 round. Made by {@link modernAsker}; the dispatcher races the tool's
 * run against {@link ModernAsker.stopped}.
 */
export class ModernAsker implements Asker {
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** Settles when the round must end: with {@link InputRequired}, or rejected with an RpcError (-32602) or AskError. */
  readonly stopped: Promise<InputRequired>;
  readonly #version: string;
  readonly #binding: StateBinding;
  readonly #previous: StatePayload | undefined;
  readonly #responses: Record<string, unknown>;
  readonly #now: () => number;
  /** Answers used in this round, by key (carried to the next state). */
  readonly #used: Record<string, readonly [AskKind, unknown]> = {};
  readonly #keys = new Set<string>();
  #count = 0;
  #pending: Record<string, { method: string; params: Record<string, unknown> }> | undefined;
  #resolve!: (r: InputRequired) => void;
  #reject!: (e: unknown) => void;
  #ended = false;
  /** The call's id, the same in every round (a new random one in the first). */
  readonly callId: string;
  /** This round's number, from 1. */
  readonly round: number;

  constructor(
    version: string,
    caps: Readonly<Record<string, unknown>>,
    binding: StateBinding,
    previous: StatePayload | undefined,
    responses: Record<string, unknown>,
    now: () => number,
  ) {
    this.#version = version;
    this.clientCapabilities = caps;
    this.#binding = binding;
    this.#previous = previous;
    this.#responses = responses;
    this.#now = now;
    this.callId =
      typeof previous?.c === "string"
        ? previous.c
        : Buffer.from(crypto.getRandomValues(new Uint8Array(9))).toString("base64url");
    this.round = (previous?.r ?? 0) + 1;
    this.stopped = new Promise<InputRequired>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Nobody may listen (the tool finished first): a rejection must not be reported as unhandled.
    this.stopped.catch(() => {});
  }

  elicit<S extends ElicitObjectSchema>(request: ElicitFormRequest<S>): Promise<ElicitFormResult<v.InferOutput<S>>>;
  elicit(request: ElicitUrlRequest): Promise<ElicitUrlResult>;
  elicit(request: ElicitFormRequest<ElicitObjectSchema> | ElicitUrlRequest): Promise<unknown> {
    return this.#ask(() => prepareElicit(request, this.#version, this.clientCapabilities), "elicit");
  }

  sample(request: SampleRequest): Promise<SampleResult> {
    return this.#ask(
      () => prepareSample(request, this.#version, this.clientCapabilities),
      "sample",
    ) as Promise<SampleResult>;
  }

  roots(request?: RootsRequest): Promise<Root[]> {
    return this.#ask(() => prepareRoots(request, this.clientCapabilities), "roots") as Promise<Root[]>;
  }

  forward(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: { readonly key?: string },
  ): Promise<Record<string, unknown>> {
    const key = options?.key !== undefined && this.#keys.has(options.key) ? undefined : options?.key;
    return this.#ask(
      () => prepareForward(method, params, this.#version, this.clientCapabilities, key),
      askKindOf(method) ?? "elicit",
    ) as Promise<Record<string, unknown>>;
  }

  #ask(prepare: () => PreparedAsk, kind: AskKind): Promise<unknown> {
    if (this.#ended) return NEVER;
    let p: PreparedAsk;
    try {
      p = prepare();
    } catch (e) {
      return Promise.reject(e);
    }
    const n = ++this.#count;
    const key = p.key ?? `${kind}_${n}`;
    if (this.#keys.has(key))
      return Promise.reject(
        new AskError("bad-request", `the ask key "${key}" is used twice in one call; give each ask its own key`),
      );
    this.#keys.add(key);
    if (p.params === undefined) return Promise.resolve().then(() => p.finish({ roots: [] }));
    const replayed = this.#previous?.a[key];
    let answer: unknown;
    if (replayed !== undefined && replayed[0] === kind) answer = replayed[1];
    else if (key in this.#responses) {
      const checked = checkAnswer(kind, this.#responses[key]);
      if (!checked.ok) {
        this.#end(new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] ${checked.error}`));
        return NEVER;
      }
      answer = checked.value;
    } else {
      // Unanswered: ask in this round's InputRequiredResult. Siblings started in the same turn
      // (Promise.all of several asks) join it; the round ends on the next turn of the event loop.
      if (this.#pending === undefined) {
        this.#pending = {};
        setImmediate(() => this.#finishRound());
      }
      this.#pending[key] = { method: p.method, params: p.params };
      return NEVER;
    }
    this.#used[key] = [kind, answer];
    try {
      return Promise.resolve(p.finish(answer));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  #finishRound(): void {
    if (this.#ended) return;
    const payload: StatePayload = {
      m: this.#binding.method,
      n: this.#binding.name,
      h: this.#previous?.h ?? argumentsDigest(this.#binding.args),
      e: this.#now() + STATE_TTL_MS,
      r: this.round,
      c: this.callId,
      a: { ...this.#previous?.a, ...this.#used },
    };
    const state = encodeState(payload);
    if (state === undefined) {
      this.#end(
        new AskError(
          "bad-request",
          `the answers so far are too large to carry in requestState (over ${MAX_STATE_BYTES} bytes); ask for less per call`,
        ),
      );
      return;
    }
    this.#ended = true;
    this.#resolve(new InputRequired(this.#pending!, state));
  }

  #end(e: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reject(e);
  }
}

/**
 * Prepares one 2026-07-28 round of a request that may ask: checks the retry fields and verifies the state.
 * @param version - the protocol version in force (2026-07-28).
 * @param caps - `_meta["io.modelcontextprotocol/clientCapabilities"]` of this request.
 * @param binding - the request (method, name, arguments as sent).
 * @param retry - its `requestState` and `inputResponses`, as sent.
 * @param now - the clock, epoch milliseconds.
 * @returns the asker for this round's run.
 * @throws RpcError -32602 for `inputResponses` that is not an object, or a bad `requestState` (see decodeState).
 */
export function modernAsker(
  version: string,
  caps: Readonly<Record<string, unknown>>,
  binding: StateBinding,
  retry: RetryParams,
  now: () => number = Date.now,
): ModernAsker {
  const responses = retry.inputResponses;
  if (responses !== undefined && (typeof responses !== "object" || responses === null || Array.isArray(responses))) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      "Invalid params: inputResponses must be an object mapping inputRequests keys to results",
    );
  }
  const previous = retry.requestState === undefined ? undefined : decodeState(retry.requestState, binding, now());
  return new ModernAsker(version, caps, binding, previous, (responses ?? {}) as Record<string, unknown>, now);
}
