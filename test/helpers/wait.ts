/** @module Waiting for events in tests, bounded by timeouts: text arriving on a stream, a process exiting. */

/**
 * The text of a byte stream as it arrives (a child's stderr or stdout), with waits for a pattern in it and
 * for its end. Reading starts at construction.
 */
export class StreamText {
  /** Everything read so far. */
  text = "";
  /** Resolves with the whole text once the stream has ended (the writer closed it, e.g. the process exited). */
  readonly ended: Promise<string>;
  #waiters: { pattern: RegExp | string; from: number; resolve: (text: string) => void }[] = [];

  constructor(stream: ReadableStream<Uint8Array>) {
    this.ended = (async () => {
      const dec = new TextDecoder();
      for await (const chunk of stream) {
        this.text += dec.decode(chunk, { stream: true });
        for (const w of [...this.#waiters]) {
          if (found(this.text, w.pattern, w.from)) {
            this.#waiters.splice(this.#waiters.indexOf(w), 1);
            w.resolve(this.text);
          }
        }
      }
      return this.text;
    })();
  }

  /**
   * Waits until the text from offset `from` on contains `pattern`.
   * @param timeoutMs - how long to wait at most (default 10 s).
   * @param from - where to start looking (e.g. the length before the request that writes it); default 0.
   * @returns the text at that moment; rejects on timeout, and when the stream ends without it.
   */
  waitFor(pattern: RegExp | string, timeoutMs = 10_000, from = 0): Promise<string> {
    if (found(this.text, pattern, from)) return Promise.resolve(this.text);
    return new Promise((resolve, reject) => {
      const fail = (why: string) =>
        reject(new Error(`${why} waiting for ${pattern}; text so far:\n${this.text.slice(-2000)}`));
      const t = setTimeout(() => fail("timed out"), timeoutMs);
      void this.ended.then(
        () => (clearTimeout(t), found(this.text, pattern, from) ? resolve(this.text) : fail("the stream ended")),
      );
      this.#waiters.push({ pattern, from, resolve: (text) => (clearTimeout(t), resolve(text)) });
    });
  }

  /**
   * Waits for the end of the stream.
   * @returns the whole text; rejects after `timeoutMs`.
   */
  end(timeoutMs = 10_000): Promise<string> {
    return within(this.ended, timeoutMs, "the end of the stream");
  }
}

function found(text: string, pattern: RegExp | string, from: number): boolean {
  const t = from > 0 ? text.slice(from) : text;
  return typeof pattern === "string" ? t.includes(pattern) : pattern.test(t);
}

/**
 * A promise bounded by a timeout.
 * @returns what `p` resolves to; rejects naming `what` after `timeoutMs`.
 */
export function within<T>(p: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs)),
    ),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Pokes a process until it exits, for a check that the next write after the client went away ends it:
 * when the client's close has not landed yet, a poke's answer still fits the pipe, so it pokes again
 * (every `everyMs`) instead of guessing how long the close takes.
 * @param exited - the process's exit promise.
 * @param poke - writes something that makes the process write (e.g. a ping); errors are ignored.
 * @param timeoutMs - at most this long in all.
 * @returns the exit code; rejects when the process is still running after `timeoutMs`.
 */
export async function pokeUntilExit(
  exited: Promise<number>,
  poke: () => void,
  timeoutMs = 5_000,
  everyMs = 100,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let code: number | undefined;
  void exited.then((c) => (code = c));
  while (code === undefined) {
    if (performance.now() > deadline) throw new Error(`the process did not exit within ${timeoutMs} ms of being poked`);
    try {
      poke();
    } catch {}
    await Promise.race([exited, new Promise((r) => setTimeout(r, everyMs))]);
  }
  return code;
}
