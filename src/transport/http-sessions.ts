/** @module Legacy HTTP sessions (2025-03-26 … 2025-11-25): one dispatcher Session per Mcp-Session-Id, idle expiry, a bound on their number. */
import type { RequestId } from "../protocol/jsonrpc.ts";
import { Session } from "../server/dispatcher.ts";
import type { Registry } from "../server/registry.ts";

/** Where the notifications of one in-flight request go (its SSE stream once it has one). */
export type Sink = (line: string) => void;

/** One legacy session: its dispatcher state and the notification sinks of its in-flight requests. */
export interface LegacySession {
  readonly id: string;
  /** The client that made it ({@link clientOf}): whose quota it counts against. */
  readonly owner: string;
  readonly session: Session;
  /** Sinks by request id; progress for a request goes to that request's HTTP response. */
  readonly sinks: Map<RequestId, Sink>;
  /** HTTP requests of this session being handled now. */
  active: number;
  /** Last use, ms since the epoch. */
  lastSeen: number;
}

/** Where a session's lines tied to no request go (its GET stream, through the change feed). */
export type Unrelated = (sid: string, line: string) => void;

/**
 * Creates a dispatcher Session whose lines tied to a request (progress, requests to the client) are
 * routed by request id to that request's stream; lines tied to no request go to `unrelated` (the GET stream).
 * @param registry - the server.
 * @param sinks - the sinks of the session's in-flight requests, by id.
 * @param unrelated - takes a line tied to no request (dropped without one).
 * @returns the session.
 */
export function routedSession(
  registry: Registry,
  sinks: Map<RequestId, Sink>,
  unrelated?: (line: string) => void,
): Session {
  return new Session(registry, (line, id) => {
    if (id !== undefined) sinks.get(id)?.(line);
    else unrelated?.(line);
  });
}

/**
 * Who a request comes from, for the session quota: its verified OAuth subject (`http.auth`), else its bearer
 * token when it sends one of its own (within its address: `token:<digest>@address:…`), else the address it connects
 * from (also when the token is the server's one shared `http.token`). A token is kept as a digest, never as sent.
 * @param req - the request.
 * @param address - the peer's address, when the server knows it.
 * @param sharedToken - the server's `http.token`, which names no one client.
 * @param subject - the verified OAuth caller (issuer and subject), when there is one.
 * @returns a key such as `token:…@address:127.0.0.1` or `address:127.0.0.1`.
 */
export function clientOf(
  req: Request,
  address: string | undefined,
  sharedToken: string | undefined,
  subject?: string,
): string {
  if (subject !== undefined) return `subject:${subject}`;
  const a = req.headers.get("authorization");
  const token = a !== null && /^bearer /i.test(a) ? a.slice(7).trim() : "";
  const at = address === undefined ? UNKNOWN : `address:${address}`;
  // mcpbin did not verify this token: it names a client only within its address (see groupOf).
  if (token !== "" && token !== sharedToken)
    return `token:${new Bun.CryptoHasher("sha256").update(token).digest("hex")}${address === undefined ? "" : `@${at}`}`;
  return at;
}

/**
 * The group a client's sessions count in when a full table gives one up: its address for a token mcpbin did not
 * verify (a flood of `initialize`, each with a fresh made-up token, is one address's flood), else the client itself.
 */
function groupOf(owner: string): string {
  const at = owner.startsWith("token:") ? owner.indexOf("@") : -1;
  return at === -1 ? owner : owner.slice(at + 1);
}

/** The owner of a session whose client the server cannot tell (no token of its own, no address): no quota of its own. */
export const UNKNOWN_CLIENT = "address:unknown";
const UNKNOWN = UNKNOWN_CLIENT;

/**
 * The table of legacy sessions (MCP 2025-03-26+ basic/transports, session management): ids are
 * random UUIDs issued at `initialize`; an idle session expires after `idleMs`; at most `max` are kept,
 * and at most `perClient` per client ({@link clientOf}): a client at its quota loses its own least
 * recently used idle session for a new one, and a full table gives up an idle session of the client that
 * holds the most, so a flood from one client never pushes out another's.
 */
export class LegacySessions {
  readonly #byId = new Map<string, LegacySession>();
  readonly #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * @param registry - the server.
   * @param idleMs - expiry after this long unused (0 = never).
   * @param max - sessions kept at most.
   * @param unrelated - takes each session's lines tied to no request.
   * @param ended - told of each session that ends (its GET stream closes).
   * @param perClient - sessions one client (token, else address) may hold.
   * @param now - the clock, ms (tests pass their own instead of waiting for time to pass).
   */
  constructor(
    readonly registry: Registry,
    readonly idleMs: number,
    readonly max: number,
    readonly unrelated?: Unrelated,
    readonly ended?: (sid: string) => void,
    readonly perClient: number = max,
    readonly now: () => number = Date.now,
  ) {
    if (idleMs > 0) {
      this.#timer = setInterval(() => this.sweep(), Math.max(1000, Math.min(idleMs / 2, 60_000)));
      this.#timer.unref();
    }
  }

  /** Number of live sessions. */
  get size(): number {
    return this.#byId.size;
  }

  /** Every live session (for draining at shutdown). */
  all(): IterableIterator<LegacySession> {
    return this.#byId.values();
  }

  /**
   * A new session, not yet in the table (it is added by {@link add} once `initialize` succeeds).
   * @param given - the id of a session another replica created (shared sessions); absent: a new random one.
   */
  create(given?: string, owner = UNKNOWN): LegacySession {
    const sinks = new Map<RequestId, Sink>();
    const id = given ?? crypto.randomUUID();
    const u = this.unrelated;
    return {
      id,
      owner,
      session: routedSession(this.registry, sinks, u && ((line) => u(id, line))),
      sinks,
      active: 0,
      lastSeen: this.now(),
    };
  }

  /**
   * Adds an initialized session. A client at its quota first loses its own least recently used idle
   * session; a full table first gives up the least recently used idle session of the client holding the most.
   * @returns false when no idle session can make room (the caller answers 503).
   */
  add(s: LegacySession): boolean {
    this.sweep();
    const held = new Map<string, number>();
    for (const x of this.#byId.values()) held.set(x.owner, (held.get(x.owner) ?? 0) + 1);
    let from: ((x: LegacySession) => boolean) | undefined;
    // A client whose address the server was not given (an app that calls mcpHandler() without Bun's server) has no quota of its own.
    if (s.owner !== UNKNOWN && (held.get(s.owner) ?? 0) >= this.perClient) from = (x) => x.owner === s.owner;
    else if (this.#byId.size >= this.max) {
      // The group (address, or verified client) holding the most gives up a session of its client holding the most.
      const grouped = new Map<string, number>();
      for (const x of this.#byId.values()) grouped.set(groupOf(x.owner), (grouped.get(groupOf(x.owner)) ?? 0) + 1);
      const top = Math.max(...grouped.values());
      const inTop = (x: LegacySession) => grouped.get(groupOf(x.owner)) === top;
      const most = Math.max(...[...this.#byId.values()].filter(inTop).map((x) => held.get(x.owner) ?? 0));
      from = (x) => inTop(x) && held.get(x.owner) === most;
    }
    if (from) {
      let lru: LegacySession | undefined;
      for (const x of this.#byId.values())
        if (from(x) && x.active === 0 && x.session.inFlight === 0 && (!lru || x.lastSeen < lru.lastSeen)) lru = x;
      if (!lru) return false;
      this.end(lru.id, "The session was dropped: too many sessions");
    }
    this.#byId.set(s.id, s);
    return true;
  }

  /** The live session with this id (touching it), or undefined when unknown or expired. */
  get(id: string): LegacySession | undefined {
    const s = this.#byId.get(id);
    if (!s) return undefined;
    if (this.#expired(s, this.now())) {
      this.end(id, "The session expired");
      return undefined;
    }
    s.lastSeen = this.now();
    return s;
  }

  /**
   * Ends a session (DELETE, expiry, eviction): calls in flight are aborted and still answered.
   * @returns false when there was no such session.
   */
  end(id: string, reason: string): boolean {
    const s = this.#byId.get(id);
    if (!s) return false;
    this.#byId.delete(id);
    s.session.abortAll(reason);
    this.ended?.(id);
    return true;
  }

  /** Drops every expired session. */
  sweep(): void {
    const now = this.now();
    for (const s of [...this.#byId.values()]) if (this.#expired(s, now)) this.end(s.id, "The session expired");
  }

  /** Stops the expiry timer. */
  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  #expired(s: LegacySession, now: number): boolean {
    return this.idleMs > 0 && s.active === 0 && s.session.inFlight === 0 && now - s.lastSeen > this.idleMs;
  }
}
