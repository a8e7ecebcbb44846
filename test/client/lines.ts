// Line waiting for the client and proxy tests: wait for a stderr line (an event), bounded by a timeout.

/**
 * Collects a child's stderr lines; `next(re)` resolves with the first (past or future) line matching `re`,
 * `nth(re, n)` with the n-th, each bounded by a timeout.
 */
export function stderrLines() {
  const lines: string[] = [];
  const waiters: { check: () => boolean }[] = [];
  const nth = (re: RegExp, n: number, ms = 15_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const find = () => lines.filter((l) => re.test(l))[n - 1];
      const hit = find();
      if (hit !== undefined) return resolve(hit);
      const t = setTimeout(
        () => reject(new Error(`no line ${n} matching ${re} in ${ms} ms:\n${lines.join("\n")}`)),
        ms,
      );
      waiters.push({
        check: () => {
          const h = find();
          if (h === undefined) return false;
          clearTimeout(t);
          resolve(h);
          return true;
        },
      });
    });
  return {
    lines,
    push(l: string) {
      lines.push(l);
      for (const w of waiters.splice(0)) if (!w.check()) waiters.push(w);
    },
    nth,
    next: (re: RegExp, ms?: number) => nth(re, 1, ms),
  };
}

/** Feeds every line of a byte stream to `sink.push`. */
export async function pumpLines(
  stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  sink: { push(l: string): void },
): Promise<void> {
  const dec = new TextDecoder();
  let buf = "";
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    buf += dec.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      sink.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  }
  if (buf) sink.push(buf);
}
