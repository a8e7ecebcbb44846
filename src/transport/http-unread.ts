/** @module HTTP answers a client does not read: bodies handed to the socket as it takes them, a write deadline per answer, and a bound on the bytes all unread answers hold. */
import { logName } from "../runtime/log-name.ts";

/** A body at most this long is handed to the socket whole (the kernel's buffers take it at once). */
const SMALL = 64 * 1024;
/** How much of a large body is handed over per pull. */
const CHUNK = 64 * 1024;
/** An answer whose client took nothing for this long may be dropped early when the bound is passed, ms. */
const STALLED_MS = 500;

/**
 * What making one answer takes at its peak, in answers of its size: the value the tool returns, its serialized
 * line, and the copy made on the way (one 15 MiB answer took 67 MiB of RSS to make and held 15 once made).
 */
const MAKING = 3;
/** Kinds of request (method, and tool for tools/call) whose answer sizes are remembered; more use the overall average. */
const KINDS = 1024;
/** An answer expected this large waits for the collection of the last large one's garbage before it is made. */
const LARGE = 1 << 20;
/** How long a request waits behind one of its kind whose answer size is not known yet, ms. */
const PROBE_MS = 200;

const encoder = new TextEncoder();

/** A collection scheduled and not yet run, and when the last one ran (performance.now()). */
let collecting: Promise<void> | undefined;
let collected = -Infinity;
/**
 * A large answer leaves the copies it was made from (the tool's text, the result object) as garbage that the
 * collector, which does not count them, may leave for long; one full collection in the next turn (at most one
 * per 100 ms) returns them, so the bound on held bytes is a bound on memory. {@link UnreadAnswers.enter} waits
 * for it before another large answer is made, which is then made in the memory the last one's garbage held.
 */
function collectSoon(): void {
  if (collecting) return;
  collecting = new Promise<void>((resolve) => {
    const t = setTimeout(
      () => {
        Bun.gc(true);
        collected = performance.now();
        collecting = undefined;
        resolve();
      },
      Math.max(0, collected + 100 - performance.now()),
    );
    t.unref?.();
  });
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
  /** Requests waiting to start. */
  #waiting: (() => void)[] = [];
  /** Requests admitted whose answers do not exist yet. */
  #producing = 0;
  /** What making their answers is expected to take together (code units). */
  #making = 0;
  /** A moving average of answer sizes (code units), overall and by kind of request. */
  #average: number | undefined;
  readonly #sizes = new Map<string, number>();
  /** Kinds whose size is unknown and of which one request is being made. */
  readonly #probing = new Set<string>();
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
   * @param kind - the kind of request it answers ({@link enter}), whose expected size it updates.
   * @returns the body for `new Response`.
   */
  body(text: string, what: string, kind = ""): string | ReadableStream<Uint8Array> {
    this.made(kind, text.length);
    if (text.length <= SMALL) return text;
    if (text.length >= LARGE) collectSoon();
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
   * Admits one request: waits while the unread answers and the answers being made would take more than
   * `maxUnsentBytes`. An answer being made counts {@link MAKING} times its expected size (the recent answers to
   * its kind of request): what it is made from and its copies count, not only what waits for the client. Of a
   * kind not answered yet (its size unknown) one request is made at a time, for {@link PROBE_MS} at most (the first
   * answer tells the size); one expected to be large waits for the
   * collection of the garbage the last large one left. Unread answers are read, dropped at their deadline or
   * dropped as stalled, and answers being made come to exist, so the wait ends; with nothing held or being made, a
   * request starts whatever its estimate.
   * @param kind - the kind of request (method, and for tools/call the tool's name), whose answers' sizes are remembered.
   * @returns `leave()`, to call once the request's answer exists (its bytes are then counted as held).
   */
  async enter(kind = ""): Promise<() => void> {
    const since = performance.now();
    let need = 0;
    for (;;) {
      const expected = this.#sizes.get(kind) ?? (this.#sizes.size >= KINDS ? this.#average : undefined);
      need = (expected ?? 0) * MAKING;
      // Behind a request of the same unknown kind for PROBE_MS at most: a slow call does not hold back its kind.
      const probeLeft = expected === undefined && this.#probing.has(kind) ? since + PROBE_MS - performance.now() : 0;
      if (expected !== undefined && expected >= LARGE && collecting) await collecting;
      else if (this.#fits(need) && probeLeft <= 0) break;
      else
        await new Promise<void>((wake) => {
          this.#waiting.push(wake);
          if (probeLeft > 0) setTimeout(wake, probeLeft).unref?.();
        });
    }
    const probe = !this.#sizes.has(kind) && this.#sizes.size < KINDS;
    if (probe) this.#probing.add(kind);
    this.#producing++;
    this.#making += need;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (probe) this.#probing.delete(kind);
      this.#producing--;
      this.#making -= need;
      this.#wake();
    };
  }

  /**
   * Remembers the size of an answer to a kind of request (a JSON body, or the last event of a stream).
   * @param kind - the kind ({@link enter}).
   * @param size - its length, code units.
   */
  made(kind: string, size: number): void {
    const mean = (old: number | undefined) => (old === undefined ? size : old * 0.75 + size * 0.25);
    this.#average = mean(this.#average);
    if (this.#sizes.has(kind) || this.#sizes.size < KINDS) this.#sizes.set(kind, mean(this.#sizes.get(kind)));
  }

  /** Whether an answer whose making takes `need` may start now. */
  #fits(need: number): boolean {
    return this.#held + this.#making + need <= this.maxUnsentBytes || (this.#held <= 0 && this.#producing === 0);
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

  /** Wakes the waiting requests: each checks again whether it may start. */
  #wake(): void {
    if (this.#waiting.length === 0) return;
    for (const wake of this.#waiting.splice(0)) wake();
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
