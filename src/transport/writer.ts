/** @module The one serialized writer of protocol lines: whole lines, in order, with backpressure; EPIPE ends it. */
import type { FileSink } from "bun";

/**
 * Writes protocol lines to one file descriptor. Each line goes out whole, in the order written;
 * a flush is queued as a microtask, so the replies to a chunk of requests (and replies settled in the
 * same microtask checkpoint) share one write, and nothing waits for another turn of the event loop
 * (a `setImmediate` flush cost a loop turn per reply and ~0.3 M instructions before the first one). When the buffer passes `highWaterMark` bytes, {@link write} returns a promise the caller
 * awaits (backpressure). A write error (EPIPE: the client went away) calls `onClosed` once.
 */
export class LineWriter {
  readonly #sink: FileSink;
  #buffered = 0;
  #pending = "";
  #scheduled = false;
  #closed = false;
  #flushing: Promise<void> | undefined;

  /**
   * @param fd - the file descriptor (the saved stdout).
   * @param onClosed - called once when the peer has gone away.
   * @param highWaterMark - bytes buffered before writers must wait; default 1 MiB.
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

  /**
   * Queues one line (a newline is appended).
   * @returns a promise when the caller should wait for the buffer to drain, else undefined.
   */
  write(line: string): Promise<void> | undefined {
    if (this.#closed) return undefined;
    // Lines collect in one string and reach the sink in one write per flush: one native call and one
    // UTF-8 encode per burst instead of per line.
    this.#pending += line + "\n";
    this.#buffered += line.length + 1;
    if (this.#buffered >= this.highWaterMark) return this.flush();
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        void this.flush();
      });
    }
    return undefined;
  }

  /** Hands the collected lines to the sink; false when the sink has failed. */
  #drain(): boolean {
    if (this.#pending === "") return true;
    const text = this.#pending;
    this.#pending = "";
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

  /** Flushes everything written so far. Never rejects. */
  flush(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#flushing) return this.#flushing.then(() => this.flush());
    this.#buffered = 0;
    if (!this.#drain()) return Promise.resolve();
    let r: number | Promise<number>;
    try {
      r = this.#sink.flush();
    } catch (e) {
      this.#fail(e);
      return Promise.resolve();
    }
    if (typeof r === "number") return Promise.resolve();
    // Bun 1.4.4: after the pipe broke, flush() returns undefined instead of throwing again.
    if (typeof (r as Promise<number> | undefined)?.then !== "function") {
      this.#fail(new Error("EPIPE: stdout is closed"));
      return Promise.resolve();
    }
    const p = r.then(
      () => {
        this.#flushing = undefined;
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
    this.onClosed(e);
  }
}
