/** @module What a method declares (MethodSpec), the notifications and capabilities of a server, and the table of them; the connection's table and the request's entry are declared here, with the table. */
import type * as v from "valibot";
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { Connection, Era, ServerState } from "./connection.ts";
import type { RequestContext } from "./context.ts";

declare module "./connection.ts" {
  interface Connection {
    /** Its methods. */
    readonly table: MethodTable;
  }
  interface ServerState {
    /** The middleware chain, when the options gave any (the pipeline calls it instead of invoke()). */
    readonly middleware: Chain | undefined;
  }
}

declare module "./context.ts" {
  interface RequestContext {
    /** The method's table entry, once invoke() has looked it up. */
    spec: MethodSpec | undefined;
    /** The params as the entry's schema checked them, once invoke() has. */
    params: unknown;
  }
}

/**
 * One MCP method in a room of its own (src/server/methods/<method>.ts). The pipeline checks
 * everything declared here before `handle` runs; errors from these checks come from the table.
 * @typeParam P - the params `handle` receives (the schema's output).
 * @typeParam R - the version-neutral result `handle` returns.
 */
export interface MethodSpec<P = any, R = any> {
  /** The method name, as the spec spells it (e.g. `tools/call`). */
  readonly name: string;
  /** The eras that have it. */
  readonly eras: readonly Era[];
  /** The legacy versions that have it (default: every one); the modern era is one version. */
  readonly versions?: readonly string[];
  /** Answered before `initialize` in the legacy era (`initialize`, `ping`). */
  readonly beforeInitialize?: boolean;
  /**
   * A request that lives until the client ends it (`subscriptions/listen`): over HTTP it has no request deadline,
   * and a shutdown does not wait for it (src/server/calls.ts `idle()`; it ends with {@link aborted}'s result).
   */
  readonly longLived?: boolean;
  /**
   * Legacy: it changes what a session holds (subscriptions, the log level), so a shared session (`http.redis`)
   * is saved after it, before its answer (src/transport/http-legacy.ts).
   */
  readonly changesSession?: boolean;
  /**
   * It serves what other servers may provide (their tools, resources, prompts, or changes of them): with `upstreams`,
   * it waits for every upstream to have started or passed its start timeout, the lazy ones too (src/serve/create-server.ts).
   */
  readonly waitsForUpstreams?: boolean;
  /** The server capability it belongs to (a {@link CapabilitySpec} name): not advertised → -32601. */
  readonly capability?: string;
  /**
   * Its params (valibot). Arrays arrive as `null`, absent params as `undefined`. The first issue's
   * message is the -32602 message: give messages that start with "Invalid params:".
   */
  readonly params?: v.GenericSchema<unknown, P>;
  /**
   * A hot path's shortcut for {@link params}: the params when they plainly pass the schema (returned
   * as they are), else undefined, and the schema then decides (and words the error). It must accept
   * nothing the schema refuses.
   */
  readonly accepts?: (params: unknown) => P | undefined;
  /**
   * Handles one request. Throw an RpcError for a wire error. A promise makes the request one in
   * flight (src/server/calls.ts): cancellable, counted, with a time limit when {@link timeoutMs} says so.
   */
  handle(params: P, ctx: RequestContext): R | PromiseLike<R>;
  /** The response line of a result (default: {@link completeResult} of an object, or a {@link ProjectedJson} as is). */
  line?(id: RequestId, result: R, ctx: RequestContext): string;
  /** Whether 2026-07-28 results carry cache hints (default false). */
  readonly cacheable?: boolean;
  /** The time limit of a request in flight, ms (0 or absent: none). */
  timeoutMs?(params: P, ctx: RequestContext): number;
  /** The result of a request that ran out of time (default: a -32603 error). */
  timedOut?(ms: number, params: P, ctx: RequestContext): R;
  /** The result of a request aborted by shutdown or a session's end (default: a -32603 error). */
  aborted?(reason: string, ctx: RequestContext): R;
}

/** A notification the server acts on (e.g. `notifications/cancelled`); unknown notifications are ignored. */
export interface NotificationSpec {
  readonly name: string;
  /** Handles it; must not throw (a notification gets no answer). */
  handle(
    params: Record<string, unknown> | undefined,
    connection: Connection,
    calls: { cancel(id: unknown, reason: string | undefined): void },
  ): void;
}

/** One server capability: advertised by `initialize` and `server/discover` when `advertise` gives a value. */
export interface CapabilitySpec {
  /** The capability's key, e.g. `tools`. */
  readonly name: string;
  /** Its value for this server (e.g. `{}` or `{ listChanged: true }`), or undefined to not advertise it. */
  advertise(registry: ServerState): Record<string, unknown> | undefined;
}

/** The methods, notifications and capabilities of a server. */
export interface MethodTable {
  readonly methods: ReadonlyMap<string, MethodSpec>;
  readonly notifications: ReadonlyMap<string, NotificationSpec>;
  readonly capabilities: readonly CapabilitySpec[];
  /** The capabilities advertised for a server, computed once per registry. */
  advertised(registry: ServerState): Readonly<Record<string, Record<string, unknown>>>;
}

/** The chain's entry, as the pipeline calls it instead of invoke(). */
export type Chain = (method: string, params: unknown, ctx: RequestContext) => Promise<unknown>;
