/** @module The event store of legacy POST SSE streams: every event a request's stream sent (or would have sent after the client dropped it), bounded per stream and in total, for a GET with Last-Event-ID to replay. */

/** Where a resumed stream's events go: the line and its event id. */
export type EventSink = (line: string, id: string) => void;

/** The events of one POST stream (MCP 2025-03-26+ basic/transports, resumability and redelivery). */
export class StreamRecorder {
  /** Events kept: `[n, line]`, n = 1, 2, …; the oldest may have been dropped (bounds). */
  readonly events: [number, string][] = [];
  #n = 0;
  /** The response was recorded: a replay ends with it. */
  finished = false;
  /** When the stream ended (ms since the epoch); 0 while it runs. */
  finishedAt = 0;
  /** The client dropped the connection: events are kept for a resumption. */
  detached = false;
  #sink: EventSink | undefined;
  #onEnd: (() => void) | undefined;

  /**
   * @param key - the stream's part of each event id (random).
   * @param sid - the legacy session it belongs to (a resumption must come from it).
   * @param store - the store that bounds it.
   */
  constructor(
    readonly key: string,
    readonly sid: string,
    readonly store: StreamEvents,
  ) {}

  /** The id of the priming event (nothing before it). */
  get primingId(): string {
    return `${this.key}.0`;
  }

  /** Records one line. @returns its event id. */
  record(line: string): string {
    const n = ++this.#n;
    const id = `${this.key}.${n}`;
    // Kept even while the client reads: what was queued but never reached it is replayed from here.
    this.events.push([n, line]);
    this.store.counted(this);
    this.#sink?.(line, id);
    return id;
  }

  /** The client dropped the stream: keep what comes for a resumption. */
  detach(): void {
    this.detached = true;
    this.#sink = undefined;
  }

  /** The response was sent (or recorded). */
  finish(): void {
    this.finished = true;
    this.finishedAt = Date.now();
    const end = this.#onEnd;
    this.#sink = undefined;
    this.#onEnd = undefined;
    end?.();
    // Kept `keepMs` after the result even when it was delivered: the client's last read may have been lost
    // (a replica draining, a connection reset), and it resumes, as often as it needs, until then.
  }

  /**
   * Resumes: the events after `after` go to `sink` now, later ones as they come; `onEnd` when the response has gone.
   * @returns false when an event after `after` is no longer kept.
   */
  resume(after: number, sink: EventSink, onEnd: () => void): boolean {
    const first = this.events[0]?.[0] ?? this.#n + 1;
    if (after + 1 < first && after < this.#n) return false;
    for (const [n, line] of this.events) if (n > after) sink(line, `${this.key}.${n}`);
    this.detached = false;
    if (this.finished) {
      onEnd();
      this.detached = true;
      return true;
    }
    this.#sink = sink;
    this.#onEnd = onEnd;
    return true;
  }
}

/** Every resumable POST stream of a server: at most `maxPerStream` events each, `maxTotal` in all, kept `keepMs` after the response. */
export class StreamEvents {
  readonly #byKey = new Map<string, StreamRecorder>();
  #total = 0;
  #swept = 0;

  /**
   * @param maxPerStream - events kept per stream (older ones dropped).
   * @param maxTotal - events kept over every stream (the oldest stream's oldest first).
   * @param keepMs - how long a dropped stream's events stay after its response.
   */
  constructor(
    readonly maxPerStream: number,
    readonly maxTotal: number,
    readonly keepMs: number,
  ) {}

  /** Events kept now (for tests and the bounds). */
  get total(): number {
    return this.#total;
  }

  /** A new stream of session `sid`. */
  open(sid: string): StreamRecorder {
    this.#sweep();
    const r = new StreamRecorder(`p${crypto.randomUUID().replaceAll("-", "")}`, sid, this);
    this.#byKey.set(r.key, r);
    return r;
  }

  /**
   * The stream and position a Last-Event-ID names, when it is one of this store's and of session `sid`.
   * @returns undefined for an id of another form (a GET stream's).
   */
  find(lastEventId: string, sid: string): { recorder: StreamRecorder | undefined; after: number } | undefined {
    const m = /^(p[0-9a-f]{32})\.(\d{1,15})$/.exec(lastEventId);
    if (!m) return undefined;
    const r = this.#byKey.get(m[1]!);
    return { recorder: r && r.sid === sid ? r : undefined, after: Number(m[2]) };
  }

  /** The stream with this key, when this replica runs it (another replica's streams: src/transport/shared-post-streams.ts). */
  get(key: string): StreamRecorder | undefined {
    return this.#byKey.get(key);
  }

  /** @internal a recorder kept one more event. */
  counted(r: StreamRecorder): void {
    this.#total++;
    if (r.events.length > this.maxPerStream) {
      r.events.shift();
      this.#total--;
    }
    while (this.#total > this.maxTotal) {
      const oldest = this.#byKey.values().next().value as StreamRecorder | undefined;
      if (!oldest) break;
      if (oldest.events.shift()) this.#total--;
      if (oldest.events.length === 0 && oldest.finished) this.forget(oldest);
      else if (oldest.events.length === 0) this.#byKey.set(oldest.key, (this.#byKey.delete(oldest.key), oldest)); // to the back
    }
  }

  /** @internal drops a stream's events. */
  forget(r: StreamRecorder): void {
    if (this.#byKey.get(r.key) !== r) return;
    this.#byKey.delete(r.key);
    this.#total -= r.events.length;
    r.events.length = 0;
  }

  #sweep(): void {
    const now = Date.now();
    if (now - this.#swept < 1000) return;
    this.#swept = now;
    for (const r of [...this.#byKey.values()]) if (r.finished && now - r.finishedAt > this.keepMs) this.forget(r);
  }
}
