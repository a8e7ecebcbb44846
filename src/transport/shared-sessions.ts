/** @module Legacy sessions kept in a shared store: what a session negotiated and asked for (version, client, log level, subscriptions), so that any replica serves any session; replicas tell each other of changes on the bus. */
import type { LoggingLevel } from "../protocol/logging.ts";
import type { ClientInfo } from "../server/middleware-api.ts";
import type { Bus, Store } from "../shared/store.ts";
import { logLine } from "../runtime/log-name.ts";
import { UNKNOWN_CLIENT, type LegacySession, type LegacySessions } from "./http-sessions.ts";
import { subscriptionsOf } from "../content/subscriptions.ts";

/** The shared state of one legacy session (JSON in the store). */
export interface SessionState {
  /** The negotiated protocol version. */
  readonly v: string;
  readonly c?: ClientInfo;
  readonly l?: LoggingLevel;
  /** Told tools `listChanged`. */
  readonly t: boolean;
  /** Hears of resource list changes. */
  readonly r: boolean;
  /** Hears of prompt list changes. */
  readonly p: boolean;
  /** Its resource subscriptions. */
  readonly s: readonly string[];
  /** The OAuth subject that owns it ("" without OAuth). */
  readonly o: string;
  /** The client whose quota it counts against (`token:…`, `address:…`; src/transport/http-sessions.ts clientOf). */
  readonly q?: string;
}

/** The legacy sessions of one server in a shared store (MCP 2025-03-26+ basic/transports, session management). */
export class SharedSessions {
  readonly #saved = new Map<string, string>();
  /** When each session's key was last written or renewed, ms since the epoch. */
  readonly #renewed = new Map<string, number>();
  #unsubscribe: (() => Promise<void>) | undefined;
  #table: LegacySessions | undefined;

  /**
   * @param store - where sessions are kept.
   * @param bus - where replicas tell each other a session changed or ended.
   * @param prefix - key prefix and channel of this server's sessions.
   * @param idleMs - a session unused this long is forgotten (0 = kept a day).
   * @param origin - this replica's id.
   * @param perClient - sessions one client may hold across every replica (`http.maxSessionsPerClient`).
   */
  constructor(
    readonly store: Store,
    readonly bus: Bus,
    readonly prefix: string,
    readonly idleMs: number,
    readonly origin: string,
    readonly perClient = Infinity,
  ) {}

  /**
   * Listens for other replicas' changes to sessions this replica holds.
   * @param sessions - this replica's table: a changed session is updated in it, an ended one ended.
   * @param owners - the owner of each session held.
   */
  async start(sessions: LegacySessions, owners: WeakMap<LegacySession, string>): Promise<void> {
    this.#table = sessions;
    this.#unsubscribe = await this.bus.subscribe(`${this.prefix}sessions`, (m) => {
      const [origin, kind, sid] = m.split(" ");
      if (origin === this.origin || sid === undefined) return;
      const s = sessions.get(sid);
      if (!s) return;
      if (kind === "end") {
        this.#saved.delete(sid);
        this.#renewed.delete(sid);
        sessions.end(sid, "The session was ended by the client");
      } else
        void this.load(sid).then(
          (st) => {
            if (st) {
              apply(s, st);
              owners.set(s, st.o);
              this.#saved.set(sid, JSON.stringify(st));
            }
          },
          (e) => logLine(`session ${sid} changed on another replica, but could not be read: ${e?.message ?? e}`),
        );
    });
  }

  /** The state of a session as this replica holds it. */
  stateOf(s: LegacySession, owner: string): SessionState {
    const x = s.session;
    return {
      v: x.version ?? "",
      ...(x.client ? { c: x.client } : {}),
      ...(x.logLevel ? { l: x.logLevel } : {}),
      t: x.registry.watches(x),
      r: subscriptionsOf.get(x).watchesList,
      p: subscriptionsOf.get(x).watchesPrompts,
      s: subscriptionsOf.get(x).uris(),
      o: owner,
      ...(s.owner !== UNKNOWN_CLIENT ? { q: s.owner } : {}),
    };
  }

  /** Writes a session's state when it changed (or every quarter of the idle time), and tells the other replicas. */
  async save(s: LegacySession, owner: string): Promise<void> {
    const text = JSON.stringify(this.stateOf(s, owner));
    const first = !this.#saved.has(s.id);
    if (this.#saved.get(s.id) === text) return;
    this.#saved.set(s.id, text);
    this.#renewed.set(s.id, Date.now());
    await this.store.set(`${this.prefix}session:${s.id}`, text, { ttlMs: this.#ttl() }).catch((e) => {
      this.#saved.delete(s.id); // not saved: the next save tries again
      throw e;
    });
    await this.bus.publish(`${this.prefix}sessions`, `${this.origin} change ${s.id}`);
    if (first) await this.#quota(s);
  }

  /**
   * A session in use stays in the store: its key's time to live, and its place in its client's quota, are renewed
   * at most every quarter of the idle time (a session used without changing would otherwise be forgotten by the
   * store, and by every other replica, `sessionIdleMs` after its last change).
   * @param sid - a session this replica holds.
   */
  touch(sid: string): void {
    const text = this.#saved.get(sid);
    const now = Date.now();
    if (text === undefined || now - (this.#renewed.get(sid) ?? 0) < this.#ttl() / 4) return;
    this.#renewed.set(sid, now);
    void this.store.set(`${this.prefix}session:${sid}`, text, { ttlMs: this.#ttl() }).catch(() => {});
    const q = (JSON.parse(text) as SessionState).q;
    if (q !== undefined) void this.#quota({ id: sid, owner: q });
  }

  /**
   * A new session counts against its client's quota across every replica (a sorted set in Redis): past it, the
   * client's oldest sessions end everywhere. While the store fails, each replica's own quota still holds.
   */
  async #quota(s: { readonly id: string; readonly owner: string }): Promise<void> {
    if (s.owner === UNKNOWN_CLIENT || this.perClient === Infinity || this.store.claim === undefined) return;
    let dropped: string[];
    try {
      dropped = await this.store.claim(this.#quotaKey(s.owner), s.id, this.perClient, this.#ttl());
    } catch (e) {
      logLine(`the session quota is counted in this replica only: ${(e as Error)?.message ?? e}`);
      return;
    }
    for (const sid of dropped) {
      this.#table?.end(sid, "The session was dropped: too many sessions");
      await this.remove(sid, false);
    }
  }

  #quotaKey(client: string): string {
    return `${this.prefix}sessions-of:${client}`;
  }

  #ttl(): number {
    return this.idleMs > 0 ? this.idleMs : 86_400_000;
  }

  /** Reads a session's state, or undefined when no replica has it (never created, ended or expired). */
  async load(sid: string): Promise<SessionState | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(sid)) return undefined;
    const text = await this.store.get(`${this.prefix}session:${sid}`);
    return text === undefined ? undefined : (JSON.parse(text) as SessionState);
  }

  /**
   * The session from the store, made a member of this replica's table.
   * @returns it, or undefined when the store does not have it (or the table is full of busy sessions).
   */
  async adopt(
    sid: string,
    sessions: LegacySessions,
    owners: WeakMap<LegacySession, string>,
  ): Promise<LegacySession | undefined> {
    const st = await this.load(sid);
    if (!st || st.v === "") return undefined;
    const existing = sessions.get(sid);
    if (existing) return existing;
    const s = sessions.create(sid);
    apply(s, st);
    owners.set(s, st.o);
    this.#saved.set(sid, JSON.stringify(st));
    return sessions.add(s) ? s : undefined;
  }

  /**
   * Ends a session everywhere (DELETE, or dropped for its client's quota); never rejects (a store that fails is
   * logged).
   * @param release - take it out of its client's quota (not needed when the quota dropped it).
   */
  async remove(sid: string, release = true): Promise<void> {
    this.#renewed.delete(sid);
    this.#saved.delete(sid);
    try {
      const q = release && this.store.release ? (await this.load(sid))?.q : undefined;
      if (q !== undefined) await this.store.release!(this.#quotaKey(q), sid);
      await this.store.delete(`${this.prefix}session:${sid}`);
      await this.bus.publish(`${this.prefix}sessions`, `${this.origin} end ${sid}`);
    } catch (e) {
      // Ended here already; the others forget it when its key expires (sessionIdleMs).
      logLine(`the end of session ${sid} could not be shared: ${(e as Error)?.message ?? e}`);
    }
  }

  /** Stops listening. */
  close(): void {
    void this.#unsubscribe?.();
  }
}

/** Makes a session what the state says (a new one, or one another replica changed). */
function apply(s: LegacySession, st: SessionState): void {
  const x = s.session;
  x.version = st.v;
  x.client = st.c;
  x.logLevel = st.l;
  if (st.t && !x.registry.watches(x)) x.registry.watch(x);
  const subs = subscriptionsOf.get(x);
  if (st.r) subs.listChanges();
  if (st.p) subs.promptChanges();
  const want = new Set(st.s);
  for (const uri of subs.uris()) if (!want.has(uri)) subs.unsubscribe(uri);
  for (const uri of want) subs.subscribe(uri);
}
