/** @module The one serialized writer of protocol lines: whole lines, in order, bounded by bytes buffered; progress coalesced while queued; EPIPE ends it. */
import type { FileSink } from "bun";
import { wellFormedLine } from "../protocol/well-formed.ts";

/** A line this long (UTF-16 code units) is queued as a part of its own. */
const LARGE = 1 << 16;

/** A queued line that a later line with the same key may replace (latest wins). */
interface Slot {
  text: string;
}

/**
 * Writes protocol lines to one file descriptor. Each line goes out whole, in the order written;
 * a flush is queued as a microtask, so the replies to a chunk of requests (and replies settled in the
 * same microtask checkpoint) share one write, and nothing waits for another turn of the event loop
 * (a `setImmediate` flush cost a loop turn per reply and ~0.3 M instructions before the first one).
 *
 * Memory is bounded by what is buffered, not by how many lines are written: {@link buffered} counts the
 * lines queued here and those handed to the sink that the reader has not taken yet; once it reaches
 * `highWaterMark`, {@link write} and {@link ready} return a promise that settles when the reader has
 * caught up (the transport stops reading input until then). A line written with a `key` (progress for
 * one token) replaces the queued line with that key while no other line was queued after it: a client
 * that does not read gets the latest progress, not every step. A write error (EPIPE: the client went
 * away) calls `onClosed` once.
 */
export class LineWriter {
  readonly #sink: FileSink;
  /** UTF-16 code units queued here (≈ bytes of JSON text). */
  #queued = 0;
  /** Code units handed to the sink whose flush has not settled. */
  #inSink = 0;
  /** Lines queued before #pending: strings and coalescable slots. */
  #parts: (string | Slot)[] = [];
  #pending = "";
  /** Slots that a line with the same key may still replace (cleared by any line without a key). */
  readonly #slots = new Map<unknown, Slot>();
  #scheduled = false;
  #closed = false;
  #flushing: Promise<void> | undefined;
  /** One promise for everyone waiting for the reader to catch up, and its resolver. */
  #ready: Promise<void> | undefined;
  #resolveReady: (() => void) | undefined;

  /**
   * @param fd - the file descriptor (the saved stdout).
   * @param onClosed - called once when the peer has gone away.
   * @param highWaterMark - code units buffered (≈ bytes) before writers must wait; default 1 MiB.
   */
  constructor(
    fd: number,
    readonly onClosed: (error: unknown) => void,
    readonly highWaterMark = 1 << 20,
  ) {
    this.#sink = Bun.file(fd).writer({ highWaterMark: 1 << 16 });
  }

  /** True once a write has failed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** What is buffered and not yet taken by the reader: queued lines plus lines in the sink (UTF-16 code units). */
  get buffered(): number {
    return this.#queued + this.#inSink;
  }

  /**
   * Queues one line (a newline is appended).
   * @param line - one JSON-RPC message.
   * @param key - a coalescing key (progress: the request it belongs to): replaces the queued line with
   *   the same key if no line without a key was queued after it.
   * @returns a promise when the caller should wait for the reader to catch up, else undefined.
   */
  write(line: string, key?: unknown): Promise<void> | undefined {
    if (this.#closed) return undefined;
    const text = wellFormedLine(line) + "\n";
    if (key === undefined) {
      // Small lines collect in one string and reach the sink in one write per flush: one native call and
      // one UTF-8 encode per burst instead of per line. A large line stays a part of its own, so a backlog
      // reaches the sink a high-water mark at a time instead of as one copy of everything.
      if (text.length < LARGE) this.#pending += text;
      else {
        if (this.#pending !== "") this.#parts.push(this.#pending);
        this.#pending = "";
        this.#parts.push(text);
      }
      if (this.#slots.size > 0) this.#slots.clear();
    } else {
      const slot = this.#slots.get(key);
      if (slot) {
        this.#queued += text.length - slot.text.length;
        slot.text = text;
        return this.ready();
      }
      if (this.#pending !== "") {
        this.#parts.push(this.#pending);
        this.#pending = "";
      }
      const s = { text };
      this.#parts.push(s);
      this.#slots.set(key, s);
    }
    this.#queued += text.length;
    if (this.#queued >= this.highWaterMark) {
      // While a flush is under way, its end flushes what was queued meanwhile.
      if (!this.#flushing) void this.flush();
      return this.ready();
    }
    this.#schedule();
    return this.ready();
  }

  /** A flush in a microtask, unless one is queued or under way (its end flushes what is left). */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (!this.#flushing) void this.flush();
    });
  }

  /**
   * @returns undefined while less than `highWaterMark` is buffered; else a promise that settles once
   *   the reader has taken enough (or the writer has closed). Never rejects.
   */
  ready(): Promise<void> | undefined {
    if (this.#closed || this.buffered < this.highWaterMark) return undefined;
    return (this.#ready ??= new Promise((resolve) => (this.#resolveReady = resolve)));
  }

  #wake(): void {
    if (this.#ready === undefined || (!this.#closed && this.buffered >= this.highWaterMark)) return;
    const resolve = this.#resolveReady!;
    this.#ready = this.#resolveReady = undefined;
    resolve();
  }

  /** Hands queued lines to the sink, about a high-water mark of them at most; false when the sink has failed. */
  #drain(): boolean {
    let text = "";
    if (this.#parts.length === 0) {
      text = this.#pending;
      this.#pending = "";
    } else {
      // Slots handed over (or behind them) can no longer be replaced.
      this.#slots.clear();
      let n = 0;
      let size = 0;
      while (n < this.#parts.length && (size < this.highWaterMark || n === 0)) {
        const part = this.#parts[n++]!;
        size += typeof part === "string" ? part.length : part.text.length;
      }
      const taken = this.#parts.splice(0, n);
      if (this.#parts.length === 0 && size + this.#pending.length <= this.highWaterMark) {
        taken.push(this.#pending);
        this.#pending = "";
      }
      text =
        taken.length === 1 && typeof taken[0] === "string"
          ? taken[0]
          : taken.map((p) => (typeof p === "string" ? p : p.text)).join("");
    }
    if (text === "") return true;
    this.#queued -= text.length;
    this.#inSink += text.length;
    try {
      // A write the sink could not finish at once returns a promise (Bun 1.4.4); its EPIPE must not go unhandled.
      const r = this.#sink.write(text) as number | Promise<number>;
      if (typeof r !== "number") r.then(undefined, (e: unknown) => this.#fail(e));
    } catch (e) {
      this.#fail(e);
      return false;
    }
    return true;
  }

  /** Flushes everything written so far (and whatever is written meanwhile). Never rejects. */
  flush(): Promise<void> {
    return this.#flushStep().then(() => (this.#queued > 0 && !this.#closed ? this.flush() : undefined));
  }

  /** One write to the sink and its flush (or the one under way). */
  #flushStep(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#flushing) return this.#flushing;
    if (!this.#drain()) return Promise.resolve();
    let r: number | Promise<number>;
    try {
      r = this.#sink.flush();
    } catch (e) {
      this.#fail(e);
      return Promise.resolve();
    }
    if (typeof r === "number") {
      this.#inSink = 0;
      // What the high-water mark kept back goes out in the next flush.
      if (this.#queued > 0) this.#schedule();
      this.#wake();
      return Promise.resolve();
    }
    // Bun 1.4.4: after the pipe broke, flush() returns undefined instead of throwing again.
    if (typeof (r as Promise<number> | undefined)?.then !== "function") {
      this.#fail(new Error("EPIPE: stdout is closed"));
      return Promise.resolve();
    }
    const p = r.then(
      () => {
        this.#flushing = undefined;
        this.#inSink = 0;
        // Lines queued while the reader was behind go out now, in one write.
        if (this.#queued > 0) void this.flush();
        this.#wake();
      },
      (e: unknown) => {
        this.#flushing = undefined;
        this.#fail(e);
      },
    );
    this.#flushing = p;
    return p;
  }

  #fail(e: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake();
    this.onClosed(e);
  }
}
