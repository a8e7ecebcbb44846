/** @module HTTP answers a client does not read: bodies handed to the socket as it takes them, a write deadline per answer, and a bound on the bytes all unread answers hold. */
import { logName } from "../runtime/log-name.ts";

/** A body at most this long is handed to the socket whole (the kernel's buffers take it at once). */
const SMALL = 64 * 1024;
/** How much of a large body is handed over per pull. */
const CHUNK = 64 * 1024;
/** An answer whose client took nothing for this long may be dropped early when the bound is passed, ms. */
const STALLED_MS = 500;

const encoder = new TextEncoder();

let collecting: ReturnType<typeof setTimeout> | undefined;
/**
 * A large answer leaves the copies it was made from (the tool's text, the result object) as garbage that the
 * collector, which does not count them, may leave for long; one full collection in the next turn returns them,
 * so the bound on held bytes is a bound on memory (10 unread 15 MiB answers peaked at 182–228 MiB without it,
 * 183 with it). At most one per 100 ms.
 */
function collectSoon(): void {
  if (collecting) return;
  collecting = setTimeout(() => {
    Bun.gc(true);
    // At most one collection per 100 ms, however many large answers are made.
    setTimeout(() => (collecting = undefined), 100).unref?.();
  }, 0);
  collecting.unref?.();
}

/** One answer being written: what it holds, when its client last took bytes, how to drop it. */
interface Pending {
  held: number;
  lastPull: number;
  readonly what: string;
  drop(why: string): void;
}

/**
 * Watches every answer of one HTTP endpoint that its client has not read yet. An answer whose client takes
 * nothing for `writeTimeoutMs` is dropped: its connection is closed and, for a stream, its call cancelled.
 * The bytes held for answers not yet taken are counted together; past `maxUnsentBytes`, the answers whose
 * clients have stalled longest are dropped first, so one client that does not read cannot hold the
 * server's memory (nor push out answers that are being read).
 */
export class UnreadAnswers {
  readonly #pending = new Set<Pending>();
  #held = 0;
  #waiting: (() => void)[] = [];
  /** Requests admitted whose answers do not exist yet. */
  #producing = 0;
  /** A moving average of answer sizes (code units). */
  #average = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * @param writeTimeoutMs - longest time an answer may wait for its client to take bytes (0 = no deadline).
   * @param maxUnsentBytes - bytes all unread answers may hold together before the stalled ones are dropped.
   */
  constructor(
    readonly writeTimeoutMs: number,
    readonly maxUnsentBytes: number,
  ) {}

  /** Code units (≈ bytes) held now by answers not yet taken by their clients. */
  get held(): number {
    return this.#held;
  }

  /**
   * A JSON body: small ones as they are; a large one as a stream that hands the socket a chunk each time
   * it asks for one, under the write deadline and the overall bound.
   * @param text - the body.
   * @param what - names the answer in the log line when it is dropped (method and id, never arguments).
   * @returns the body for `new Response`.
   */
  body(text: string, what: string): string | ReadableStream<Uint8Array> {
    this.#average = this.#average === 0 ? text.length : this.#average * 0.75 + text.length * 0.25;
    if (text.length <= SMALL) return text;
    if (text.length >= 1 << 20) collectSoon();
    // The text is encoded a chunk at a time as the socket takes it: no second copy of a large answer.
    let rest: string | undefined = text;
    let at = 0;
    let p: Pending | undefined;
    const release = () => {
      if (p) this.#forget(p);
      rest = undefined;
    };
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          p = this.#track(text.length, what, () => {
            release();
            try {
              controller.error(new Error("dropped"));
            } catch {}
          });
        },
        pull: (controller) => {
          if (rest === undefined || !p) return;
          let end = Math.min(at + CHUNK, rest.length);
          // A surrogate pair stays in one chunk.
          if (end < rest.length && (rest.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
          controller.enqueue(encoder.encode(rest.slice(at, end)));
          this.#took(p, end - at);
          at = end;
          if (at >= rest.length) {
            release();
            controller.close();
          }
        },
        cancel: release,
      },
      { highWaterMark: 0 },
    );
  }

  /**
   * Admits one request: waits while the unread answers, counting those being produced (each estimated at
   * the recent answers' average size), would hold more than `maxUnsentBytes`. They are read, dropped at
   * their deadline or dropped as stalled, so the wait ends.
   * @returns `leave()`, to call once the request's answer exists (its bytes are then counted as held).
   */
  async enter(): Promise<() => void> {
    while (
      this.#held + (this.#producing + 1) * this.#average > this.maxUnsentBytes &&
      (this.#held > 0 || this.#producing > 0)
    ) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#producing++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#producing--;
      this.#wake();
    };
  }

  /**
   * Watches a stream answer (SSE) made elsewhere: its deadline runs only while bytes wait in it (a stream
   * with nothing to send waits for its call as long as the call takes).
   * @param what - names it in the log line.
   * @param drop - ends the stream and cancels its call.
   * @returns `level(bytes)`, to call with the bytes queued in the stream after each enqueue and each pull,
   *   and `done()` when the answer has ended.
   */
  watch(what: string, drop: () => void): { level(queued: number): void; done(): void } {
    const p = this.#track(0, what, drop);
    return {
      level: (queued) => {
        if (!this.#pending.has(p)) return;
        // Taken (the queue shrank), or the first bytes to wait: the deadline starts from now.
        if (queued < p.held || p.held === 0) p.lastPull = performance.now();
        this.#held += queued - p.held;
        p.held = queued;
        if (queued > 0) this.#bound();
      },
      done: () => this.#forget(p),
    };
  }

  #track(held: number, what: string, drop: () => void): Pending {
    const p: Pending = { held, lastPull: performance.now(), what, drop: () => {} };
    p.drop = (why) => {
      if (!this.#pending.has(p)) return;
      this.#forget(p);
      process.stderr.write(`${logName()}: http: dropped the answer to ${what}: ${why}\n`);
      drop();
    };
    this.#pending.add(p);
    this.#held += held;
    this.#tick();
    this.#bound();
    return p;
  }

  #took(p: Pending, bytes: number): void {
    p.lastPull = performance.now();
    p.held -= bytes;
    this.#held -= bytes;
    this.#wake();
  }

  #wake(): void {
    if (this.#waiting.length === 0 || this.#held + this.#producing * this.#average > this.maxUnsentBytes) return;
    for (const w of this.#waiting.splice(0)) w();
  }

  #forget(p: Pending): void {
    if (!this.#pending.delete(p)) return;
    this.#held -= p.held;
    p.held = 0;
    this.#wake();
    if (this.#pending.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Over the bound: the answers stalled longest go first (never one whose client is reading). */
  #bound(): void {
    if (this.#held <= this.maxUnsentBytes) return;
    const now = performance.now();
    const stalled = [...this.#pending]
      .filter((p) => p.held > 0 && now - p.lastPull >= STALLED_MS)
      .sort((a, b) => a.lastPull - b.lastPull);
    for (const p of stalled) {
      if (this.#held <= this.maxUnsentBytes) break;
      p.drop(
        `the unread answers held more than ${this.maxUnsentBytes} bytes (http.maxUnsentBytes) and its client read nothing for ${Math.round(now - p.lastPull)} ms`,
      );
    }
  }

  /** The sweeper, running while any answer is pending: write deadlines, and the bound for answers that stalled since. */
  #tick(): void {
    if (this.#timer) return;
    const every = Math.max(50, Math.min(STALLED_MS, this.writeTimeoutMs > 0 ? this.writeTimeoutMs / 4 : STALLED_MS));
    this.#timer = setInterval(() => {
      const now = performance.now();
      if (this.writeTimeoutMs > 0) {
        for (const p of [...this.#pending]) {
          if (p.held > 0 && now - p.lastPull >= this.writeTimeoutMs)
            p.drop(`its client read nothing for ${this.writeTimeoutMs} ms (http.writeTimeoutMs)`);
        }
      }
      this.#bound();
    }, every);
    this.#timer.unref?.();
  }
}
