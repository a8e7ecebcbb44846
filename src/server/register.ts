/** @module Capability registration: a capability folder (src/tools/, src/content/, src/tasks/, …) adds its methods, wraps an existing one, and shapes the capabilities a request is answered with; the core names none of them. */
import type { Connection, ServerState } from "./connection.ts";
import type { RequestContext } from "./context.ts";
import type { CapabilitySpec, MethodSpec, MethodTable, NotificationSpec } from "./method-spec.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import { methodTable } from "./method.ts";
import type { ServerOptions } from "./options.ts";

/** What one capability registers. */
export interface CapabilityRegistration {
  /** Its name (registering the same name twice is a no-op: modules may register on every createServer()). */
  readonly name: string;
  /** Methods it adds. */
  readonly methods?: readonly MethodSpec[];
  /** Notifications from the client it acts on. */
  readonly notifications?: readonly NotificationSpec[];
  /** Existing methods it wraps, by name: given the entry in force, returns the one to use (same name). */
  readonly wraps?: Readonly<Record<string, (previous: MethodSpec) => MethodSpec>>;
  /** Server capabilities it adds (advertised per registry, checked by the methods' `capability`). */
  readonly capabilities?: readonly CapabilitySpec[];
  /**
   * The capabilities one request is answered with (`initialize`, `server/discover`), given those of the
   * table: e.g. a key only some versions have, or an entry under `extensions`.
   */
  readonly project?: (capabilities: Record<string, unknown>, ctx: RequestContext) => Record<string, unknown>;
  /**
   * Called when a legacy session's `initialize` succeeds (with the capabilities it answered): e.g. to tell the
   * session of later list changes.
   */
  readonly initialized?: (ctx: RequestContext, capabilities: Readonly<Record<string, unknown>>) => void;
  /**
   * A 2026-07-28 `subscriptions/listen` stream opening (MCP 2026-07-28 basic/subscriptions): given the
   * notifications the client asked for, those this capability honours (they join the acknowledgement, in
   * registration order) and how to stop delivering them when the stream ends; undefined when it honours none.
   */
  readonly listen?: (asked: Readonly<Record<string, unknown>>, ctx: RequestContext) => Listening | undefined;
  /**
   * Makes what it keeps on each server when a Registry is made (src/server/registry.ts), in registration order:
   * e.g. the tools capability's live tool set (`registry.tools`, `addTool()`, …). It declares those members by
   * augmenting ServerState (src/server/connection.ts) from its folder.
   * @throws its definition error for a bad option (the Registry's constructor throws it).
   */
  readonly server?: (registry: ServerState, options: ServerOptions) => void;
  /**
   * The version features a request is answered with, given those in force: e.g. MCP Apps' `ui` when the client
   * and the server take part in the extension (what tools/list lists, how a result is projected).
   */
  readonly features?: (features: VersionFeatures, ctx: RequestContext) => VersionFeatures;
  /**
   * Whether something it serves on this server may log (`ctx.log`): the core advertises the `logging` capability
   * when some registration says so (the tools capability: when the server has a tool).
   */
  readonly logs?: (registry: ServerState) => boolean;
  /** Called when a connection ends (its requests aborted): e.g. to drop what it subscribed to. */
  readonly closed?: (connection: Connection) => void;
  /**
   * Names the target of a request's tracing span, by method: given the request's params and the server, the name
   * the span takes after the method (the tools capability: `tools/call echo` for a tool the server has), or
   * undefined for the method alone. A target the server does not have stays out (span names stay low-cardinality).
   */
  readonly spanTargets?: Readonly<Record<string, SpanTarget>>;
}

/** One method's span target: {@link CapabilityRegistration.spanTargets}. */
export type SpanTarget = (params: unknown, registry: ServerState) => string | undefined;

/** What a capability delivers on one listen stream: {@link CapabilityRegistration.listen}. */
export interface Listening {
  /** The notifications it honours, as the acknowledgement names them (e.g. `{ toolsListChanged: true }`). */
  readonly honoured: Readonly<Record<string, unknown>>;
  /** Stops delivering them (the stream ended). */
  close(): void;
}

type Projection = NonNullable<CapabilityRegistration["project"]>;
type Initialized = NonNullable<CapabilityRegistration["initialized"]>;
type Listen = NonNullable<CapabilityRegistration["listen"]>;
type Closed = NonNullable<CapabilityRegistration["closed"]>;

const registered = new Map<string, CapabilityRegistration>();
let base:
  | {
      methods: readonly MethodSpec[];
      notifications: readonly NotificationSpec[];
      capabilities: readonly CapabilitySpec[];
    }
  | undefined;
let table: MethodTable | undefined;
let projections: Projection[] = [];
let initializers: Initialized[] = [];
let listeners: Listen[] = [];
let closers: Closed[] = [];
let featurers: NonNullable<CapabilityRegistration["features"]>[] = [];
let spanTargets = new Map<string, SpanTarget[]>();

/**
 * Sets the core's own table (src/server/methods/index.ts calls it once).
 * @returns the table with every registration so far applied.
 */
export function baseTable(
  methods: readonly MethodSpec[],
  notifications: readonly NotificationSpec[],
  capabilities: readonly CapabilitySpec[],
): MethodTable {
  base = { methods, notifications, capabilities };
  return rebuild();
}

/** The table: the registrations' capabilities first (in registration order), then the core's own. */
function rebuild(): MethodTable {
  const b = base!;
  let methods = [...b.methods];
  const notifications = [...b.notifications];
  const capabilities: CapabilitySpec[] = [];
  for (const r of registered.values()) {
    methods.push(...(r.methods ?? []));
    notifications.push(...(r.notifications ?? []));
    capabilities.push(...(r.capabilities ?? []));
  }
  capabilities.push(...b.capabilities);
  for (const r of registered.values()) {
    for (const [name, wrap] of Object.entries(r.wraps ?? {}))
      methods = methods.map((m) => (m.name === name ? wrap(m) : m));
  }
  projections = [...registered.values()].flatMap((r) => (r.project ? [r.project] : []));
  initializers = [...registered.values()].flatMap((r) => (r.initialized ? [r.initialized] : []));
  listeners = [...registered.values()].flatMap((r) => (r.listen ? [r.listen] : []));
  closers = [...registered.values()].flatMap((r) => (r.closed ? [r.closed] : []));
  featurers = [...registered.values()].flatMap((r) => (r.features ? [r.features] : []));
  spanTargets = new Map();
  for (const r of registered.values())
    for (const [method, target] of Object.entries(r.spanTargets ?? {}))
      spanTargets.set(method, [...(spanTargets.get(method) ?? []), target]);
  table = methodTable(methods, notifications, capabilities);
  return table;
}

/**
 * Registers a capability with the core: every connection made afterwards uses a table with it.
 * @param r - what it adds.
 * @throws Error when its methods clash with the table's (methodTable's check).
 */
export function registerCapability(r: CapabilityRegistration): void {
  if (registered.has(r.name)) return;
  registered.set(r.name, r);
  if (base) {
    try {
      rebuild();
    } catch (e) {
      registered.delete(r.name);
      rebuild();
      throw e;
    }
  }
}

/**
 * The table in force (the core's plus every registration).
 * @throws Error when no capability registered: the wiring (src/serve/capabilities.ts) was not imported.
 */
export function currentTable(): MethodTable {
  if (registered.size === 0)
    throw new Error("no capability is registered with the server: import src/serve/capabilities.ts (the wiring) first");
  return table!;
}

/** The names of the capabilities registered so far, in order. */
export function registeredNames(): string[] {
  return [...registered.keys()];
}

/**
 * The capabilities a request is answered with: the table's, shaped by each registration's `project`.
 * @param capabilities - the advertised capabilities (after the core's own projection).
 * @param ctx - the request (`initialize` or `server/discover`).
 */
export function projectRegistered(capabilities: Record<string, unknown>, ctx: RequestContext): Record<string, unknown> {
  let c = capabilities;
  for (const p of projections) c = p(c, ctx);
  return c;
}

/**
 * Tells every registration that a legacy session is initialized.
 * @param ctx - the `initialize` request.
 * @param capabilities - what it answered.
 */
export function initializedRegistered(ctx: RequestContext, capabilities: Readonly<Record<string, unknown>>): void {
  for (const i of initializers) i(ctx, capabilities);
}

/**
 * Opens a listen stream with every registration: what each honours, merged in registration order.
 * @param asked - the request's `notifications`.
 * @param ctx - the `subscriptions/listen` request.
 * @returns the acknowledged notifications, and a function that stops every delivery.
 */
export function listenRegistered(asked: Readonly<Record<string, unknown>>, ctx: RequestContext): Listening {
  const honoured: Record<string, unknown> = {};
  const closes: (() => void)[] = [];
  for (const l of listeners) {
    const got = l(asked, ctx);
    if (got === undefined) continue;
    Object.assign(honoured, got.honoured);
    closes.push(() => got.close());
  }
  return { honoured, close: () => closes.forEach((c) => c()) };
}

/**
 * Tells every registration that a connection ended.
 * @param connection - the connection whose requests were aborted.
 */
export function closedRegistered(connection: Connection): void {
  for (const c of closers) c(connection);
}

/** What each registration keeps on a server, in registration order (the Registry's constructor calls them). */
export function registeredServerState(): NonNullable<CapabilityRegistration["server"]>[] {
  return [...registered.values()].flatMap((r) => (r.server ? [r.server] : []));
}

/**
 * The version features a request is answered with: those in force, shaped by each registration's `features`
 * (MCP Apps: `ui` when the extension is negotiated).
 * @param ctx - the request.
 */
export function requestFeatures(ctx: RequestContext): VersionFeatures {
  let f = ctx.features;
  for (const x of featurers) f = x(f, ctx);
  return f;
}

/**
 * Whether something a server serves may log: some registration's `logs` says so (the core's `logging` capability).
 * @param registry - the server.
 */
export function logsRegistered(registry: ServerState): boolean {
  for (const r of registered.values()) if (r.logs?.(registry) === true) return true;
  return false;
}

/**
 * The target of a request's tracing span: the first a registration names for its method (OpenTelemetry MCP
 * conventions: the span is `{mcp.method.name} {target}`).
 * @param method - the message's method.
 * @param params - its params, unchecked.
 * @param registry - the server.
 * @returns the target, or undefined when none is named (the span is named by the method alone).
 */
export function spanTargetRegistered(method: string, params: unknown, registry: ServerState): string | undefined {
  const targets = spanTargets.get(method);
  if (targets === undefined) return undefined;
  for (const t of targets) {
    const name = t(params, registry);
    if (name !== undefined) return name;
  }
  return undefined;
}
