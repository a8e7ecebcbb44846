/** @module The method table: what a method declares (MethodSpec), the table of them, and invoke() — look-up, params check, handler. */
import * as v from "valibot";
import { ErrorCode, resultLine, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import { completeResult, ProjectedJson } from "../protocol/project.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import type { Connection, Era, RequestContext } from "./context.ts";
import type { Registry } from "./registry.ts";

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
  handle(params: Record<string, unknown> | undefined, connection: Connection, calls: { cancel(id: unknown, reason: string | undefined): void }): void;
}

/** One server capability: advertised by `initialize` and `server/discover` when `advertise` gives a value. */
export interface CapabilitySpec {
  /** The capability's key, e.g. `tools`. */
  readonly name: string;
  /** Its value for this server (e.g. `{}` or `{ listChanged: true }`), or undefined to not advertise it. */
  advertise(registry: Registry): Record<string, unknown> | undefined;
}

/** The methods, notifications and capabilities of a server. */
export interface MethodTable {
  readonly methods: ReadonlyMap<string, MethodSpec>;
  readonly notifications: ReadonlyMap<string, NotificationSpec>;
  readonly capabilities: readonly CapabilitySpec[];
  /** The capabilities advertised for a server, computed once per registry. */
  advertised(registry: Registry): Readonly<Record<string, Record<string, unknown>>>;
}

/**
 * Builds a table.
 * @throws Error when two entries share a name or a method names a capability the table lacks.
 */
export function methodTable(methods: readonly MethodSpec[], notifications: readonly NotificationSpec[], capabilities: readonly CapabilitySpec[]): MethodTable {
  const byName = new Map<string, MethodSpec>();
  for (const m of methods) {
    if (byName.has(m.name)) throw new Error(`method table: two entries for ${m.name}`);
    if (m.capability !== undefined && !capabilities.some((c) => c.name === m.capability)) throw new Error(`method table: ${m.name} needs capability ${m.capability}, which no entry defines`);
    byName.set(m.name, m);
  }
  const cache = new WeakMap<Registry, Record<string, Record<string, unknown>>>();
  // Nearly always one registry per process: the last one answers without a WeakMap look-up.
  let last: Registry | undefined;
  let lastCaps: Record<string, Record<string, unknown>> | undefined;
  return {
    methods: byName,
    notifications: new Map(notifications.map((n) => [n.name, n])),
    capabilities,
    advertised(registry) {
      if (registry === last) return lastCaps!;
      let caps = cache.get(registry);
      if (caps === undefined) {
        caps = {};
        for (const c of capabilities) {
          const value = c.advertise(registry);
          if (value !== undefined) caps[c.name] = value;
        }
        cache.set(registry, caps);
      }
      last = registry;
      lastCaps = caps;
      return caps;
    },
  };
}

/**
 * The table's stages for one request: look-up (-32601 for a method the table lacks, one the era or
 * version does not have, or one whose capability is not advertised), params check (-32602), handler.
 * The one entry a middleware chain may wrap.
 * @param method - the method name (looked up in `ctx.connection.table`).
 * @param params - the message's params.
 * @param ctx - the request's context.
 * @returns the handler's version-neutral result, or a promise of it; `ctx.spec` and `ctx.params` are set.
 * @throws RpcError from the checks or the handler.
 */
export function invoke(method: string, params: unknown, ctx: RequestContext): unknown {
  const spec = lookup(ctx.connection.table, method, ctx);
  ctx.spec = spec;
  const checked = spec.params === undefined ? params : checkParams(spec, params);
  ctx.params = checked;
  return spec.handle(checked, ctx);
}

/**
 * The spec of a method for this request, or the -32601 error saying why there is none.
 * @throws RpcError -32601.
 */
export function lookup(table: MethodTable, method: string, ctx: RequestContext): MethodSpec {
  const spec = table.methods.get(method);
  const modern = ctx.era === "modern";
  const where = modern ? ` (protocol version ${MODERN_VERSION})` : "";
  if (spec === undefined) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}${where}`);
  if (!spec.eras.includes(ctx.era) || (!modern && spec.versions !== undefined && !spec.versions.includes(ctx.features.version))) {
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} is not part of protocol version ${ctx.features.version}`);
  }
  if (spec.capability !== undefined && ctx.connection.table.advertised(ctx.connection.registry)[spec.capability] === undefined) {
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (this server does not advertise the ${spec.capability} capability)`);
  }
  return spec;
}

/**
 * Checks params against a method's schema (the -32602 check of {@link invoke}).
 * @throws RpcError -32602 naming the first issue.
 */
export function checkParams(spec: MethodSpec, params: unknown): unknown {
  if (spec.accepts !== undefined) {
    const ok = spec.accepts(params);
    if (ok !== undefined) return ok;
  }
  const r = v.safeParse(spec.params!, Array.isArray(params) ? null : params);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const path = issue.path?.map((p) => String(p.key)).join(".");
  const text = issue.message.startsWith("Invalid params") ? issue.message : `Invalid params: ${path ? `${path}: ` : ""}${issue.message}`;
  throw new RpcError(ErrorCode.InvalidParams, text);
}

/**
 * The response line of a method's result: the spec's own projection, else {@link completeResult}.
 * @param spec - the method.
 * @param ctx - the request.
 * @param result - what the handler returned (awaited).
 */
export function lineOf(spec: MethodSpec, ctx: RequestContext, result: unknown): string {
  if (spec.line !== undefined) return spec.line(ctx.requestId, result, ctx);
  if (result instanceof ProjectedJson) return `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.requestId)},"result":${result.json}}`;
  const registry = ctx.connection.registry;
  return resultLine(ctx.requestId, completeResult(result as Record<string, unknown>, ctx.features, registry.modernMeta, spec.cacheable === true));
}
