/** @module The method table: what a method declares (MethodSpec), the table of them, and invoke() — look-up, params check, handler. */
import * as v from "valibot";
import { ErrorCode, resultLine, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import { completeResult, ProjectedJson } from "../protocol/project.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import type { ServerState } from "./connection.ts";
import type { RequestContext } from "./context.ts";
import type { CapabilitySpec, MethodSpec, MethodTable, NotificationSpec } from "./method-spec.ts";

export type { CapabilitySpec, MethodSpec, MethodTable, NotificationSpec } from "./method-spec.ts";

/**
 * Builds a table.
 * @throws Error when two entries share a name or a method names a capability the table lacks.
 */
export function methodTable(
  methods: readonly MethodSpec[],
  notifications: readonly NotificationSpec[],
  capabilities: readonly CapabilitySpec[],
): MethodTable {
  const byName = new Map<string, MethodSpec>();
  for (const m of methods) {
    if (byName.has(m.name)) throw new Error(`method table: two entries for ${m.name}`);
    if (m.capability !== undefined && !capabilities.some((c) => c.name === m.capability))
      throw new Error(`method table: ${m.name} needs capability ${m.capability}, which no entry defines`);
    byName.set(m.name, m);
  }
  const cache = new WeakMap<ServerState, Record<string, Record<string, unknown>>>();
  // Nearly always one registry per process: the last one answers without a WeakMap look-up.
  let last: ServerState | undefined;
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
  if (
    !spec.eras.includes(ctx.era) ||
    (!modern && spec.versions !== undefined && !spec.versions.includes(ctx.features.version))
  ) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} is not part of protocol version ${ctx.features.version}`,
    );
  }
  if (
    spec.capability !== undefined &&
    ctx.connection.table.advertised(ctx.connection.registry)[spec.capability] === undefined
  ) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (this server does not advertise the ${spec.capability} capability)`,
    );
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
  const text = issue.message.startsWith("Invalid params")
    ? issue.message
    : `Invalid params: ${path ? `${path}: ` : ""}${issue.message}`;
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
  if (result instanceof ProjectedJson)
    return `{"jsonrpc":"2.0","id":${JSON.stringify(ctx.requestId)},"result":${result.json}}`;
  const registry = ctx.connection.registry;
  return resultLine(
    ctx.requestId,
    completeResult(result as Record<string, unknown>, ctx.features, registry.modernMeta, spec.cacheable === true),
  );
}
