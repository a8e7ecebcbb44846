/** @module The stdio reply backlog counted with the replies still being made: reading input waits while they would exceed a bound. */

/** Replies being made and those written but unread may hold about this much before reading input waits. */
export const BACKLOG_BOUND = 16 * 1024 * 1024;

/** How many recent replies the size of a reply being made is estimated from. */
const WINDOW = 16;

/** With this many calls in flight and no reply measured yet, reading yields once so that replies can be made and measured. */
const PROBE = 8;

/**
 * The unsent backlog of one stdio connection, counting results being produced, not only bytes queued: each
 * call in flight is taken to make a reply as large as the mean of the last 16 (one large reply among small ones
 * does not hold the next calls back for long). A client that does not read
 * then stops the server from starting calls whose replies could not be held, instead of the calls running
 * and their replies waiting in memory (400 calls of an async tool of 1 MiB: 268 MiB before, see
 * test/robustness/slow-client.test.ts).
 */
export class ReplyBacklog {
  /** The last {@link WINDOW} reply sizes (code units), and their sum: a reply being made is taken as their mean. */
  readonly #sizes: number[] = [];
  #sum = 0;
  #waiters: (() => void)[] = [];
  /** The calls-in-flight count at the last probe (a count is probed once). */
  #probed = 0;

  /** @param bound - code units (≈ bytes) the backlog may reach. */
  constructor(readonly bound = BACKLOG_BOUND) {}

  /** Notes one reply of `length` code units (every reply the connection writes). */
  sent(length: number): void {
    this.#sizes.push(length);
    this.#sum += length;
    if (this.#sizes.length > WINDOW) this.#sum -= this.#sizes.shift()!;
    this.#probed = 0;
    for (const w of this.#waiters.splice(0)) w();
  }

  /**
   * @param buffered - what the writer holds unread.
   * @param inFlight - calls running now.
   * @returns undefined when another call may start; else a promise to wait for (a reply was made, or one turn
   *   of the event loop to measure the replies made meanwhile), after which the caller asks again.
   */
  room(buffered: number, inFlight: number): Promise<void> | undefined {
    const estimate = this.#sizes.length === 0 ? 0 : this.#sum / this.#sizes.length;
    if (buffered + inFlight * estimate <= this.bound) {
      // Every PROBE calls in flight, one turn of the event loop (once per count) lets the replies made meanwhile be counted.
      if (inFlight === 0 || inFlight % PROBE !== 0 || inFlight === this.#probed) return undefined;
      this.#probed = inFlight;
      return new Promise((r) => setImmediate(r));
    }
    // Only a reply can bring the estimate down (what the writer holds past its own mark waits in writer.ready()).
    return new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}
