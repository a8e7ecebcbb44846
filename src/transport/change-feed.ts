/** @module The feed of legacy GET streams: one ordered, bounded log of server-initiated messages (list changes, resource updates, a session's own lines), whose sequence numbers are the streams' SSE event ids. */

/** What an entry is about: a list, one resource, or one session's own line. */
export type FeedTopic = "tools" | "resources" | "prompts" | "resource" | "session";

/** One entry of the feed. */
export interface FeedEntry {
  /** Position in the feed: 1, 2, 3, … (the event id of every GET stream that sends it). */
  readonly seq: number;
  readonly topic: FeedTopic;
  /** The resource (topic `resource`). */
  readonly uri?: string;
  /** The only session it is for (topic `session`). */
  readonly sid?: string;
  /** The JSON-RPC line (topic `session`); the others are made from topic and uri. */
  readonly line?: string;
}

/** An entry before it has its place. */
export type FeedChange = Omit<FeedEntry, "seq">;

/**
 * The log every GET stream reads: a change is appended once and each stream sends the entries its
 * session asked for (MCP 2025-03-26+ basic/transports, resumability: event ids are per-stream cursors).
 * The in-process feed (this file) keeps the last `maxEntries`; src/state/ gives a shared one.
 */
export interface ChangeFeed {
  /** A tag that differs between feeds that do not share their numbers (a restarted process): part of each event id. */
  readonly epoch: string;
  /** Adds an entry; listeners hear of it in order. */
  append(change: FeedChange): void;
  /** Calls `fn` for every later entry, in order. @returns a function that stops it. */
  onEntry(fn: (e: FeedEntry) => void): () => void;
  /** The entries after `seq`, in order; `"gone"` when some of them are no longer kept. */
  since(seq: number): Promise<readonly FeedEntry[] | "gone">;
  /** The last sequence number given. */
  head(): Promise<number>;
  /** Stops delivering (the server stopped). */
  close(): void;
  /** Whether an entry came from another replica (a shared feed); absent: never. */
  remote?(e: FeedEntry): boolean;
}

/** The in-process feed: a ring of the last `maxEntries` entries. */
export class MemoryFeed implements ChangeFeed {
  readonly epoch = Math.floor(Math.random() * 2 ** 32).toString(36);
  readonly #ring: FeedEntry[] = [];
  #seq = 0;
  readonly #listeners = new Set<(e: FeedEntry) => void>();

  /** @param maxEntries - entries kept for replay (in total, over every stream). */
  constructor(readonly maxEntries: number) {}

  append(change: FeedChange): void {
    const e: FeedEntry = { ...change, seq: ++this.#seq };
    this.#ring.push(e);
    if (this.#ring.length > this.maxEntries) this.#ring.shift();
    for (const fn of [...this.#listeners]) fn(e);
  }

  onEntry(fn: (e: FeedEntry) => void): () => void {
    this.#listeners.add(fn);
    return () => void this.#listeners.delete(fn);
  }

  since(seq: number): Promise<readonly FeedEntry[] | "gone"> {
    if (seq >= this.#seq) return Promise.resolve([]);
    const first = this.#ring[0]?.seq ?? this.#seq + 1;
    if (seq + 1 < first) return Promise.resolve("gone");
    return Promise.resolve(this.#ring.slice(seq + 1 - first));
  }

  head(): Promise<number> {
    return Promise.resolve(this.#seq);
  }

  close(): void {
    this.#listeners.clear();
  }
}

/** The line a list or resource entry stands for. */
export function feedLine(e: FeedEntry): string {
  switch (e.topic) {
    case "tools":
      return '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';
    case "resources":
      return '{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}';
    case "prompts":
      return '{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}';
    case "resource":
      return JSON.stringify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: e.uri } });
    default:
      return e.line ?? "";
  }
}

const CHANGE_LINE =
  /^\{"jsonrpc":"2\.0","method":"notifications\/(?:tools\/list_changed|resources\/list_changed|prompts\/list_changed|resources\/updated)"/;

/**
 * Whether a line a session emitted on no request is a change the feed already carries (the session's
 * own list and subscription logic made it; over HTTP the feed sends it, once, with an id).
 */
export function isChangeLine(line: string): boolean {
  return CHANGE_LINE.test(line);
}
