/** @module Only well-formed Unicode leaves the server: a lone surrogate in a JSON-RPC line becomes U+FFFD, and U+2028/U+2029 an escape. */

/** A `\uXXXX` escape of a surrogate, with the backslashes before it (odd: an escape; even: literal text). */
const SURROGATE_ESCAPE = /(\\+)u(d[89ab][0-9a-f]{2})(?:\\u(d[c-f][0-9a-f]{2}))?|(\\+)u(d[c-f][0-9a-f]{2})/gi;

const separatorEscape = (c: string): string => (c === "\u2028" ? "\\u2028" : "\\u2029");

/**
 * Makes one JSON text well-formed Unicode: a lone surrogate, raw or as the `\uD800`-style escape that
 * `JSON.stringify` writes for one (ES2019 well-formed JSON.stringify), becomes U+FFFD; surrogate pairs are
 * kept; U+2028 and U+2029 are written as escapes (a line reader may split there). Whatever a tool returns or throws (text, structured content, error text, names), a client then
 * decodes valid UTF-8 and strict parsers accept the line. A line without either costs one search for a backslash (and two more scans when it has one).
 * @param line - one JSON text.
 * @returns the line, unchanged when it was already well-formed.
 */
export function wellFormedLine(line: string): string {
  // isWellFormed() answers at once for a Latin-1 string (no surrogates can be in it); a line with no
  // backslash has no escape at all: the common line costs one single-character search.
  if (!line.isWellFormed()) line = line.toWellFormed();
  // U+2028 and U+2029 can stand in JSON only inside a string, where `\u2028` means the same: written escaped, a
  // reader that splits lines there too (Bun's node:readline, Python's str.splitlines) still gets whole messages.
  if (line.indexOf("\u2028") !== -1 || line.indexOf("\u2029") !== -1)
    line = line.replace(/[\u2028\u2029]/g, separatorEscape);
  if (line.indexOf("\\") === -1 || (!line.includes("\\ud") && !line.includes("\\uD"))) return line;
  return line.replace(
    SURROGATE_ESCAPE,
    (match: string, highSlashes?: string, _high?: string, low?: string, lowSlashes?: string) => {
      const slashes = (highSlashes ?? lowSlashes)!;
      if (slashes.length % 2 === 0) {
        // An escaped backslash and the text "u…", no escape; a low escape right after it is a lone one.
        return low === undefined ? match : `${match.slice(0, slashes.length + 5)}\\ufffd`;
      }
      if (highSlashes !== undefined && low !== undefined) return match; // a pair, written as two escapes
      return `${slashes.slice(0, -1)}\\ufffd`;
    },
  );
}
