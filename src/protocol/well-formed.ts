/** @module Only well-formed Unicode leaves the server: a lone surrogate in a JSON-RPC line becomes U+FFFD. */

/** A `\uXXXX` escape of a surrogate, with the backslashes before it (odd: an escape; even: literal text). */
const SURROGATE_ESCAPE = /(\\+)u(d[89ab][0-9a-f]{2})(?:\\u(d[c-f][0-9a-f]{2}))?|(\\+)u(d[c-f][0-9a-f]{2})/gi;

/**
 * Makes one JSON text well-formed Unicode: a lone surrogate, raw or as the `\uD800`-style escape that
 * `JSON.stringify` writes for one (ES2019 well-formed JSON.stringify), becomes U+FFFD; surrogate pairs are
 * kept. Whatever a tool returns or throws (text, structured content, error text, names), a client then
 * decodes valid UTF-8 and strict parsers accept the line. A line without either costs one search for a backslash (and two more scans when it has one).
 * @param line - one JSON text.
 * @returns the line, unchanged when it was already well-formed.
 */
export function wellFormedLine(line: string): string {
  // isWellFormed() answers at once for a Latin-1 string (no surrogates can be in it); a line with no
  // backslash has no escape at all: the common line costs one single-character search.
  if (!line.isWellFormed()) line = line.toWellFormed();
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
