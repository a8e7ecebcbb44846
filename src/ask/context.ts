/** @module The asks of a request's context (`ctx.elicit`, `ctx.sample`, `ctx.roots`, `ctx.forward`, `ctx.callId`): the ask capability adds them to the core's RequestContext (its interface augmented, its prototype given the methods). */
import type * as v from "valibot";
import { RequestContext } from "../server/context.ts";
import { AskError } from "./errors.ts";
import { LegacyAsker } from "./legacy.ts";
import { ModernAsker } from "./replay.ts";
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

declare module "../server/context.ts" {
  interface RequestContext {
    /** The 2026-07-28 round of a request that may ask (src/ask/rounds.ts owns what it is). */
    round: object | undefined;
    /**
     * Who answers this request's asks: set by a 2026-07-28 method that may ask (tools/call: the round's
     * ModernAsker; a task: its TaskAsker); otherwise made on first use (legacy: server → client requests;
     * 2026-07-28 elsewhere: none).
     */
    asker: Asker;
    /** The asker once set or made (src/ask/context.ts). */
    askerNow: Asker | undefined;
    /** What makes the asker on first use, when {@link askLater} said so. */
    askerLater: { make(): Asker } | undefined;
    /**
     * Like {@link asker}, made on first use by `lazy.make()`: a 2026-07-28 round with no `requestState`
     * or `inputResponses` to verify (src/ask/rounds.ts), since most calls never ask.
     */
    askLater(lazy: { make(): Asker }): void;
    /** Asks the user (MCP client/elicitation); see {@link Asker.elicit}. */
    elicit<S extends ElicitObjectSchema>(request: ElicitFormRequest<S>): Promise<ElicitFormResult<v.InferOutput<S>>>;
    elicit(request: ElicitUrlRequest): Promise<ElicitUrlResult>;
    /** Asks the client's model (MCP client/sampling); see {@link Asker.sample}. */
    sample(request: SampleRequest): Promise<SampleResult>;
    /** The client's roots (MCP client/roots); see {@link Asker.roots}. */
    roots(request?: RootsRequest): Promise<Root[]>;
    /** Forwards another server's ask as it is; see {@link Asker.forward}. */
    forward(
      method: string,
      params: Record<string, unknown> | undefined,
      options?: { readonly timeoutMs?: number; readonly key?: string },
    ): Promise<Record<string, unknown>>;
    /** 2026-07-28: the id of the call that this request's round belongs to (the same in every round of it); undefined otherwise. */
    readonly callId: string | undefined;
  }
}

const UNSUPPORTED =
  "this request cannot ask the client (2026-07-28: only tools/call, prompts/get and resources/read may)";

/** A 2026-07-28 request whose method cannot carry input_required (MCP basic/patterns/mrtr "Supported Requests"). */
const noAsk = (): Promise<never> => Promise.reject(new AskError("unsupported", UNSUPPORTED));
const NO_ASKS: Asker = {
  elicit: noAsk as Asker["elicit"],
  sample: noAsk,
  roots: noAsk,
  clientCapabilities: Object.freeze({}),
};

/** The asker of a request, made on first use. */
function askerOf(ctx: RequestContext): Asker {
  return (ctx.askerNow ??=
    ctx.askerLater !== undefined
      ? ctx.askerLater.make()
      : ctx.era === "legacy"
        ? new LegacyAsker(ctx, ctx.connection.registry.options.askTimeoutMs)
        : NO_ASKS);
}

/** The members added to every RequestContext (not enumerable, like a class's own methods). */
const ASKS: PropertyDescriptorMap & ThisType<RequestContext> = {
  asker: {
    get(this: RequestContext) {
      return askerOf(this);
    },
    set(this: RequestContext, a: Asker) {
      this.askerNow = a;
    },
  },
  askLater: {
    value(this: RequestContext, lazy: { make(): Asker }) {
      this.askerLater = lazy;
    },
  },
  elicit: {
    value(this: RequestContext, request: ElicitFormRequest<ElicitObjectSchema> | ElicitUrlRequest) {
      return askerOf(this).elicit(request as ElicitUrlRequest);
    },
  },
  sample: {
    value(this: RequestContext, request: SampleRequest) {
      return askerOf(this).sample(request);
    },
  },
  roots: {
    value(this: RequestContext, request?: RootsRequest) {
      return askerOf(this).roots(request);
    },
  },
  forward: {
    value(
      this: RequestContext,
      method: string,
      params: Record<string, unknown> | undefined,
      options?: { readonly timeoutMs?: number; readonly key?: string },
    ) {
      const a = askerOf(this);
      return a.forward ? a.forward(method, params, options) : Promise.reject(new AskError("unsupported", UNSUPPORTED));
    },
  },
  callId: {
    get(this: RequestContext) {
      if (this.era !== "modern") return undefined;
      const a = askerOf(this);
      return a instanceof ModernAsker ? a.callId : undefined;
    },
  },
};
for (const d of Object.values(ASKS)) Object.assign(d, { configurable: true, enumerable: false });
Object.defineProperties(RequestContext.prototype, ASKS);
