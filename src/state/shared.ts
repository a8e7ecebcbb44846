/** @module The store a server's replicas share for their counters (rateLimit, cacheResults, the session quota): found through the server it belongs to, and used behind a breaker so that a store that is down is answered for at once. */
import { logLine } from "../runtime/log-name.ts";
import type { Store } from "../shared/store.ts";

/** What the replicas of one server share for their counters. */
export interface SharedState {
  /** The store (Redis with `http.redis`). */
  readonly store: Store;
  /** This server's key prefix, `mcpbin:<name>:`. */
  readonly prefix: string;
}

const byServer = new WeakMap<object, SharedState>();

/**
 * Makes a store the shared state of a server: its middleware counts there from the next request on.
 * @param server - the server's state (the registry a request's connection names).
 * @param state - the store and key prefix; undefined: back to counting in this process.
 */
export function shareState(server: object, state: SharedState | undefined): void {
  if (state === undefined) byServer.delete(server);
  else byServer.set(server, state);
}

/**
 * The shared state of a server.
 * @param server - the server's state.
 * @returns it, or undefined when the server counts in this process only (no `http.redis`, stdio).
 */
export function sharedStateOf(server: object): SharedState | undefined {
  return byServer.get(server);
}

/** How long a store that failed is left alone before it is tried again, ms. */
export const BREAKER_MS = 5000;

/** What {@link useShared} answers when the store failed or is left alone after a failure. */
export const UNAVAILABLE: unique symbol = Symbol("store unavailable");

const downUntil = new WeakMap<Store, number>();

/**
 * Runs one step against the shared store. When it fails (Redis down answers within the store's time limit), the
 * store is left alone for {@link BREAKER_MS}: every caller gets {@link UNAVAILABLE} at once and falls back to what
 * it does in one process; one line on stderr says so per failure.
 * @param state - the shared state.
 * @param who - who asks and what it does meanwhile, for the line (e.g. `rateLimit: counting in this process`).
 * @param step - the work.
 * @returns its value, or UNAVAILABLE.
 */
export async function useShared<T>(
  state: SharedState,
  who: string,
  step: (store: Store) => Promise<T>,
): Promise<T | typeof UNAVAILABLE> {
  const until = downUntil.get(state.store);
  if (until !== undefined && Date.now() < until) return UNAVAILABLE;
  try {
    return await step(state.store);
  } catch (e) {
    if ((downUntil.get(state.store) ?? 0) < Date.now())
      logLine(`the shared store failed (${(e as Error)?.message ?? e}); ${who} for the next ${BREAKER_MS / 1000} s`);
    downUntil.set(state.store, Date.now() + BREAKER_MS);
    return UNAVAILABLE;
  }
}
