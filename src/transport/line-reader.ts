/** @module Bytes → lines: split on LF, strip one CR, cap the size, decode each whole line as UTF-8. */

/** Passed to the line handler instead of text when a line exceeded the cap (it was skipped). */
export const OVERSIZE = Symbol("oversize");

/** Called per line; a returned promise pauses reading until it settles (backpressure). */
export type LineHandler = (line: string | typeof OVERSIZE) => void | Promise<void>;

/** How many bytes of a line too long {@link readLines} hands to `onOversizeHead`. */
export const HEAD_BYTES = 256;

const LF = 10;
const CR = 13;
const BOM = 0xfeff;

/**
 * Reads a byte stream line by line (MCP stdio transport: one message per LF-terminated line).
 * Splits raw bytes on LF only (never on U+2028), strips one trailing CR, decodes each whole line so a
 * character split across reads is never garbled, drops a UTF-8 BOM at the start of a line, and skips blank lines (a BOM with nothing after it is blank).
 * A line longer than `maxLineBytes` is reported once as {@link OVERSIZE} and skipped up to its LF,
 * holding at most `maxLineBytes` in memory. A final line without LF is delivered at end of stream.
 * @param stream - e.g. `Bun.stdin.stream()`.
 * @param maxLineBytes - the cap in bytes.
 * @param onLine - the handler.
 * @param stop - when aborted, reading stops at once: the stream is cancelled (which releases stdin's
 *   hold on the event loop) and no further line, not even one already read, reaches `onLine`.
 * @param onOversizeHead - called with the first bytes (at most {@link HEAD_BYTES}) of a line too long, just
 *   before `onLine(OVERSIZE)`: enough to read which message it was (e.g. a response's id).
 * @returns when the stream has ended (or `stop` fired) and every handler call has settled.
 */
export async function readLines(
  stream: ReadableStream<Uint8Array>,
  maxLineBytes: number,
  onLine: LineHandler,
  stop?: AbortSignal,
  onOversizeHead?: (head: Uint8Array) => void,
): Promise<void> {
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
    // A line that is only a BOM (and blanks) is a blank line too; `decode` drops one leading BOM.
    if (i === start && end - i >= 3 && bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) {
      i += 3;
      while (i < end && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === CR)) i++;
      if (i === end) return;
    }
    return onLine(decoder.decode(bytes.subarray(start, end)));
  };

  // A run of whole lines is decoded in one call and split in string space: LF (and CR) bytes never occur
  // inside a UTF-8 sequence, and an invalid sequence cut by an LF decodes to U+FFFD either way, so this
  // yields the same strings as decoding line by line. `ignoreBOM` keeps a BOM for `emitText` to strip
  // as the per-line decode above does (each call of `decoder.decode` drops one leading BOM).
  const runDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const emitText = (text: string): void | Promise<void> => {
    let end = text.length;
    if (end > 0 && text.charCodeAt(end - 1) === CR) end--;
    let start = 0;
    if (atStart) {
      atStart = false;
      if (end >= 1 && text.charCodeAt(0) === BOM) start = 1;
    }
    let i = start;
    for (let c = text.charCodeAt(i); i < end && (c === 32 || c === 9 || c === CR); c = text.charCodeAt(++i));
    if (i === end) return;
    if (start < end && text.charCodeAt(start) === BOM) {
      // A line that is only a BOM (and blanks) is a blank line too.
      start++;
      for (
        i = start;
        i < end &&
        text.charCodeAt(i) <= 32 &&
        (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === CR);
        i++
      );
      if (i === end) return;
    }
    return onLine(start === 0 && end === text.length ? text : text.slice(start, end));
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
            onOversizeHead?.((parts[0] ?? rest).slice(0, HEAD_BYTES));
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
      if (!skipping && partBytes === 0) {
        // Whole lines up to the chunk's last LF. UTF-16 length ≤ UTF-8 bytes, so when the run fits
        // the cap no line in it can exceed it; otherwise the per-line path below checks each line.
        const last = chunk.lastIndexOf(LF);
        if (last > nl && last - pos <= maxLineBytes) {
          const text = runDecoder.decode(chunk.subarray(pos, last));
          pos = last + 1;
          let from = 0;
          for (;;) {
            const cut = text.indexOf("\n", from);
            const p = emitText(cut === -1 ? text.slice(from) : text.slice(from, cut));
            if (p) {
              await p;
              if (stop?.aborted) break read;
            }
            if (cut === -1) break;
            from = cut + 1;
          }
          continue;
        }
      }
      if (skipping) {
        skipping = false;
      } else if (partBytes === 0) {
        if (nl - pos > maxLineBytes) {
          onOversizeHead?.(chunk.slice(pos, pos + HEAD_BYTES));
          pending = onLine(OVERSIZE);
        } else pending = emit(chunk.subarray(pos, nl));
      } else if (partBytes + (nl - pos) > maxLineBytes) {
        onOversizeHead?.(parts[0]!.slice(0, HEAD_BYTES));
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
