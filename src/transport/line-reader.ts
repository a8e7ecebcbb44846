/** @module Bytes → lines: split on LF, strip one CR, cap the size, decode each whole line as UTF-8. */

/** Passed to the line handler instead of text when a line exceeded the cap (it was skipped). */
export const OVERSIZE = Symbol("oversize");

/** Called per line; a returned promise pauses reading until it settles (backpressure). */
export type LineHandler = (line: string | typeof OVERSIZE) => void | Promise<void>;

const LF = 10;
const CR = 13;

/**
 * Reads a byte stream line by line (MCP stdio transport: one message per LF-terminated line).
 * Splits raw bytes on LF only (never on U+2028), strips one trailing CR, decodes each whole line so a
 * character split across reads is never garbled, drops a UTF-8 BOM at stream start, and skips blank lines.
 * A line longer than `maxLineBytes` is reported once as {@link OVERSIZE} and skipped up to its LF,
 * holding at most `maxLineBytes` in memory. A final line without LF is delivered at end of stream.
 * @param stream - e.g. `Bun.stdin.stream()`.
 * @param maxLineBytes - the cap in bytes.
 * @param onLine - the handler.
 * @param stop - when aborted, reading stops at once: the stream is cancelled (which releases stdin's
 *   hold on the event loop) and no further line, not even one already read, reaches `onLine`.
 * @returns when the stream has ended (or `stop` fired) and every handler call has settled.
 */
export async function readLines(stream: ReadableStream<Uint8Array>, maxLineBytes: number, onLine: LineHandler, stop?: AbortSignal): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  let skipping = false;
  let atStart = true;

  const emit = (bytes: Uint8Array): void | Promise<void> => {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    let start = 0;
    if (atStart) {
      atStart = false;
      if (end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    }
    // Blank and whitespace-only lines are skipped without decoding.
    let i = start;
    while (i < end && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === CR)) i++;
    if (i === end) return;
    return onLine(decoder.decode(bytes.subarray(start, end)));
  };

  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  stop?.addEventListener("abort", cancel, { once: true });
  if (stop?.aborted) cancel();
  read: for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done || stop?.aborted) break;
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(LF, pos);
      if (nl === -1) {
        if (!skipping) {
          const rest = chunk.subarray(pos);
          if (partBytes + rest.length > maxLineBytes) {
            skipping = true;
            parts = [];
            partBytes = 0;
            atStart = false;
            const p = onLine(OVERSIZE);
            if (p) await p;
          } else {
            parts.push(rest.slice());
            partBytes += rest.length;
          }
        }
        break;
      }
      let pending: void | Promise<void> = undefined;
      if (skipping) {
        skipping = false;
      } else if (partBytes === 0) {
        if (nl - pos > maxLineBytes) pending = onLine(OVERSIZE);
        else pending = emit(chunk.subarray(pos, nl));
      } else if (partBytes + (nl - pos) > maxLineBytes) {
        parts = [];
        partBytes = 0;
        pending = onLine(OVERSIZE);
      } else {
        parts.push(chunk.subarray(pos, nl));
        const line = concat(parts, partBytes + (nl - pos));
        parts = [];
        partBytes = 0;
        pending = emit(line);
      }
      pos = nl + 1;
      if (pending) {
        await pending;
        if (stop?.aborted) break read;
      }
    }
  }
  stop?.removeEventListener("abort", cancel);
  if (!skipping && partBytes > 0 && !stop?.aborted) {
    const p = emit(concat(parts, partBytes));
    if (p) await p;
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
