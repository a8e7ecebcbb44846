/** @module A session's gate: how many calls run in it at once, a bounded queue of those waiting, and one deadline per call that covers the wait. */
import { OutboundError } from "../server/outbound.ts";

interface Waiter {
  readonly resolve: (release: () => void) => void;
  readonly reject: (e: Error) => void;
}

/** Calls into one session: at most `concurrency` at once, at most `queue` waiting. */
export class Gate {
  #running = 0;
  readonly #waiting: Waiter[] = [];

  /**
   * @param concurrency - calls running in the session at once (≥ 1).
   * @param queue - calls waiting at most (≥ 0).
   * @param label - the session as messages name it.
   */
  constructor(
    readonly concurrency: number,
    readonly queue: number,
    readonly label: string,
  ) {}

  /** Calls running now. */
  get running(): number {
    return this.#running;
  }

  /** Calls waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Waits for a turn.
   * @param signal - the call's; aborting it leaves the queue.
   * @param waitMs - how long it may wait (0: no limit).
   * @returns the release, to call once the call has ended.
   * @throws OutboundError "unavailable" when the queue is full (at once), "timeout" when the wait ran out, "cancelled".
   */
  enter(signal: AbortSignal, waitMs: number): Promise<() => void> {
    if (this.#running < this.concurrency && this.#waiting.length === 0) return Promise.resolve(this.#take());
    if (this.#waiting.length >= this.queue) {
      return Promise.reject(
        new OutboundError(
          "unavailable",
          `session ${this.label} is busy: ${this.#running} call${this.#running === 1 ? "" : "s"} running and ${this.#waiting.length} waiting, the most its queue holds (sessions.queue). Wait for them to finish, then call again`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = (e: Error) => {
        const i = this.#waiting.indexOf(w);
        if (i !== -1) this.#waiting.splice(i, 1);
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        reject(e);
      };
      const onAbort = () =>
        leave(new OutboundError("cancelled", `the call was cancelled while it waited for session ${this.label}`));
      const w: Waiter = {
        resolve: (release) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(release);
        },
        reject: leave,
      };
      this.#waiting.push(w);
      signal.addEventListener("abort", onAbort, { once: true });
      if (waitMs > 0) {
        timer = setTimeout(
          () =>
            leave(
              new OutboundError(
                "timeout",
                `session ${this.label} did not get to the call within ${Math.round(waitMs / 1000)} s: the calls before it are still running. Try again later, or raise sessions.timeoutMs (MCPBIN_SESSION_TIMEOUT_MS)`,
              ),
            ),
          waitMs,
        );
      }
    });
  }

  /** Fails every waiting call at once with `e` (the session went away). */
  failWaiting(e: Error): void {
    for (const w of this.#waiting.splice(0)) w.reject(e);
  }

  #take(): () => void {
    this.#running++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#running--;
      const next = this.#waiting.shift();
      if (next) next.resolve(this.#take());
    };
  }
}
