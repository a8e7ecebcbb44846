/** @module The change feed shared by replicas: entries numbered by the store (INCR), kept in it for replay, announced on the bus; each replica delivers them in order, filling a gap from the store. */
import { logLine } from "../runtime/log-name.ts";
import type { Bus, Store } from "../shared/store.ts";
import type { ChangeFeed, FeedChange, FeedEntry } from "./change-feed.ts";

/** How long an entry stays in the store for replay, ms (besides the bound on their number). */
const KEEP_MS = 10 * 60_000;

/**
 * A {@link ChangeFeed} every replica behind one store and bus shares: an entry gets its number from the
 * store's counter, is written to the store (for a GET that resumes on another replica), then published.
 * Every replica, the one that appended included, delivers entries from the bus in number order; a number
 * that arrives early waits for the ones before it, read from the store. A GET stream's event ids are
 * therefore the same on every replica, and a client resumes on any of them.
 */
export class SharedFeed implements ChangeFeed {
  readonly epoch = "r";
  readonly #listeners = new Set<(e: FeedEntry) => void>();
  #delivered = 0;
  #chain: Promise<void> = Promise.resolve();
  #unsubscribe: (() => Promise<void>) | undefined;
  #closed = false;

  /**
   * @param store - where entries are numbered and kept.
   * @param bus - where they are announced.
   * @param prefix - the key prefix and channel name of this server's feed.
   * @param maxEntries - entries kept for replay.
   * @param origin - this replica's id (entries it appended carry it).
   */
  constructor(
    readonly store: Store,
    readonly bus: Bus,
    readonly prefix: string,
    readonly maxEntries: number,
    readonly origin: string,
  ) {}

  /** Subscribes to the bus and starts after the entries already there. */
  async start(): Promise<void> {
    this.#delivered = await this.head();
    this.#unsubscribe = await this.bus.subscribe(`${this.prefix}feed`, (m) => this.#arrived(m));
  }

  append(change: FeedChange): void {
    void (async () => {
      const seq = await this.store.incr(`${this.prefix}feed:seq`);
      const text = JSON.stringify({ ...change, seq, origin: this.origin });
      await this.store.set(`${this.prefix}feed:${seq}`, text, { ttlMs: KEEP_MS });
      if (seq > this.maxEntries) await this.store.delete(`${this.prefix}feed:${seq - this.maxEntries}`);
      await this.bus.publish(`${this.prefix}feed`, text);
    })().catch((e) => logLine(`a change could not be shared: ${(e as Error)?.message ?? e}`));
  }

  onEntry(fn: (e: FeedEntry) => void): () => void {
    this.#listeners.add(fn);
    return () => void this.#listeners.delete(fn);
  }

  async since(seq: number): Promise<readonly FeedEntry[] | "gone"> {
    const head = await this.head();
    if (seq >= head) return [];
    if (head - seq > this.maxEntries) return "gone";
    const out: FeedEntry[] = [];
    for (let n = seq + 1; n <= head; n++) {
      const e = await this.#read(n);
      if (e === undefined) return "gone";
      out.push(e);
    }
    return out;
  }

  async head(): Promise<number> {
    return Number((await this.store.get(`${this.prefix}feed:seq`)) ?? 0);
  }

  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    void this.#unsubscribe?.();
  }

  /** Entries other replicas appended, for what must happen locally besides the GET streams (listen streams). */
  remote(e: FeedEntry & { origin?: string }): boolean {
    return e.origin !== undefined && e.origin !== this.origin;
  }

  #arrived(message: string): void {
    let e: FeedEntry;
    try {
      e = JSON.parse(message) as FeedEntry;
    } catch {
      return;
    }
    // One at a time, in number order: an entry whose predecessors have not arrived reads them from the store.
    this.#chain = this.#chain.then(async () => {
      if (this.#closed || e.seq <= this.#delivered) return;
      for (let n = this.#delivered + 1; n < e.seq; n++) {
        const missing = (await this.#read(n)) ?? (await Bun.sleep(50), await this.#read(n));
        if (missing) this.#deliver(missing);
        this.#delivered = n;
      }
      this.#deliver(e);
      this.#delivered = e.seq;
    });
  }

  #deliver(e: FeedEntry): void {
    for (const fn of [...this.#listeners]) {
      try {
        fn(e);
      } catch (err) {
        logLine(`a change listener failed: ${(err as Error)?.message ?? err}`);
      }
    }
  }

  /** Entry n from the store; undefined when it is not there or the store fails (it is then skipped, not waited for). */
  async #read(n: number): Promise<FeedEntry | undefined> {
    try {
      const text = await this.store.get(`${this.prefix}feed:${n}`);
      return text === undefined ? undefined : (JSON.parse(text) as FeedEntry);
    } catch (e) {
      logLine(`change ${n} could not be read from the store: ${(e as Error)?.message ?? e}`);
      return undefined;
    }
  }
}
