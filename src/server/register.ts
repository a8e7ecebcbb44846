/** @module Capability registration: a capability folder (src/tasks/, …) adds its methods, wraps an existing one, and shapes the capabilities a request is answered with; the core names none of them. */
import type { CapabilitySpec, MethodSpec, MethodTable, NotificationSpec, RequestContext } from "./context.ts";
import { methodTable } from "./method.ts";

/** What one capability registers. */
export interface CapabilityRegistration {
  /** Its name (registering the same name twice is a no-op: modules may register on every createServer()). */
  readonly name: string;
  /** Methods it adds. */
  readonly methods?: readonly MethodSpec[];
  /** Existing methods it wraps, by name: given the entry in force, returns the one to use (same name). */
  readonly wraps?: Readonly<Record<string, (previous: MethodSpec) => MethodSpec>>;
  /** Server capabilities it adds (advertised per registry, checked by the methods' `capability`). */
  readonly capabilities?: readonly CapabilitySpec[];
  /**
   * The capabilities one request is answered with (`initialize`, `server/discover`), given those of the
   * table: e.g. a key only some versions have, or an entry under `extensions`.
   */
  readonly project?: (capabilities: Record<string, unknown>, ctx: RequestContext) => Record<string, unknown>;
}

const registered = new Map<string, CapabilityRegistration>();
let base: { methods: readonly MethodSpec[]; notifications: readonly NotificationSpec[]; capabilities: readonly CapabilitySpec[] } | undefined;
let table: MethodTable | undefined;
let projections: ((capabilities: Record<string, unknown>, ctx: RequestContext) => Record<string, unknown>)[] = [];

/**
 * Sets the core's own table (src/server/methods/index.ts calls it once).
 * @returns the table with every registration so far applied.
 */
export function baseTable(methods: readonly MethodSpec[], notifications: readonly NotificationSpec[], capabilities: readonly CapabilitySpec[]): MethodTable {
  base = { methods, notifications, capabilities };
  return rebuild();
}

function rebuild(): MethodTable {
  const b = base!;
  let methods = [...b.methods];
  const capabilities = [...b.capabilities];
  for (const r of registered.values()) {
    methods.push(...(r.methods ?? []));
    capabilities.push(...(r.capabilities ?? []));
    for (const [name, wrap] of Object.entries(r.wraps ?? {})) {
      methods = methods.map((m) => (m.name === name ? wrap(m) : m));
    }
  }
  projections = [...registered.values()].flatMap((r) => (r.project ? [r.project] : []));
  table = methodTable(methods, b.notifications, capabilities);
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
  if (base) rebuild();
}

/** The table in force (the core's plus every registration). */
export function currentTable(): MethodTable {
  return table!;
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
