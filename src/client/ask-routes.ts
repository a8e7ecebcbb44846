/** @module Which request in flight a server's request or log message belongs to: the requests that answer asks or take log messages, and those that ended lately. */
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { JsonObject, RequestOptions, ServerRequestHandler, UnattributedAsks } from "./client-types.ts";

/** A request in flight that may answer the server's requests and get its log messages. */
export interface Route {
  readonly onRequest: ServerRequestHandler | undefined;
  readonly onLog: RequestOptions["onLog"];
  readonly unattributed: UnattributedAsks | undefined;
  /** Its JSON-RPC id (once sent). */
  id: string | undefined;
  /** Its `_meta.progressToken`, when it has one. */
  readonly token: unknown;
  /** Who it is made for ({@link RequestOptions.party}). */
  party: unknown;
  readonly listening: (() => boolean) | undefined;
}

/** A request of ours that ended recently: a server's untied message may still be its. */
interface Ended {
  readonly party: unknown;
  readonly at: number;
  readonly onRequest: boolean;
}

/** How long a request that ended still counts as a possible cause of a server's untied request, ms. */
export const LATE_MS = 10_000;

/**
 * The requests of one connection that answer the server's requests or take its log messages, in the order they
 * were sent, and those that ended in the last {@link LATE_MS} (a stateful owner, one per McpClient).
 */
export class AskRoutes {
  /** Per-request answerers of the server's requests, in the order their requests were sent. */
  readonly #routes = new Map<number, Route>();
  /** Requests with a route that ended in the last {@link LATE_MS}, oldest first. */
  #recent: Ended[] = [];
  #nextRoute = 1;

  /**
   * Adds the route of a request about to be sent, when it answers asks or takes log messages.
   * @param opts - the request's options.
   * @param params - its params (their `_meta.progressToken` ties asks to it).
   * @returns its key (0: no route) and the hook that learns its JSON-RPC id.
   */
  open(opts: RequestOptions, params: JsonObject): { key: number; onId: ((id: string) => void) | undefined } {
    if (!opts.onRequest && !opts.onLog) return { key: 0, onId: undefined };
    const key = this.#nextRoute++;
    const r: Route = {
      onRequest: opts.onRequest,
      onLog: opts.onLog,
      unattributed: opts.unattributed,
      id: undefined,
      token: (params._meta as JsonObject | undefined)?.progressToken,
      party: undefined,
      listening: opts.listening,
    };
    r.party = opts.party ?? opts.unattributed?.party ?? r;
    this.#routes.set(key, r);
    return { key, onId: (id) => (r.id = id) };
  }

  /** The request of `key` ended: it is remembered for {@link LATE_MS} when it answered asks. */
  close(key: number): void {
    if (!key) return;
    const r = this.#routes.get(key)!;
    this.#routes.delete(key);
    if (r.onRequest) this.#recent.push({ party: r.party, at: performance.now(), onRequest: true });
    if (this.#recent.length > 256) this.#recent.shift();
  }

  /**
   * The request in flight that a server's request or log message belongs to ({@link RequestOptions.onRequest}):
   * `found` when tied to one; otherwise the requests in flight that could have caused it (oldest first), and
   * `mixed` when those (for a request, with the requests ended in the last {@link LATE_MS}) are made for more than one party
   * (then it belongs to none of them: it is never guessed).
   */
  routeOf(
    has: "onRequest" | "onLog",
    params: JsonObject | undefined,
    relatedId: RequestId | undefined,
    byToken: boolean,
  ): { found?: Route; candidates: Route[]; mixed?: boolean } {
    const candidates: Route[] = [];
    for (const r of this.#routes.values())
      if (r[has] && (has !== "onLog" || r.listening?.() !== false)) candidates.push(r);
    if (relatedId !== undefined) {
      const r = candidates.find((c) => c.id === relatedId);
      if (r) return { found: r, candidates };
    }
    const token = byToken ? (params?._meta as JsonObject | undefined)?.progressToken : undefined;
    if (token !== undefined) {
      const r = candidates.find((c) => c.token === token);
      if (r) return { found: r, candidates };
    }
    const since = performance.now() - LATE_MS;
    while (this.#recent.length > 0 && this.#recent[0]!.at < since) this.#recent.shift();
    const parties = new Set(candidates.map((c) => c.party));
    // An ask may come late from a call that has ended: those count too. A log message goes to the calls in flight
    // (one client's calls only), so that one client's log messages are not lost for a while after another's call.
    if (has === "onRequest") for (const e of this.#recent) if (e.onRequest) parties.add(e.party);
    if (parties.size > 1) return { candidates, mixed: true };
    return candidates.length === 1 ? { found: candidates[0], candidates } : { candidates };
  }

  /** The shared party's unattributed handler when every candidate gives one for the same party. */
  static shared(candidates: readonly Route[]): UnattributedAsks | undefined {
    const u = candidates[0]?.unattributed;
    return u && candidates.every((c) => c.unattributed?.party === u.party) ? u : undefined;
  }
}
