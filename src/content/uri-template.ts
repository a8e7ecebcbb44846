/** @module RFC 6570 URI templates, levels 1-3: parsing with clear errors, expansion, and matching a URI back to variables. */

/** One `{…}` expression: its operator and variable names. */
interface Expression {
  readonly op: "" | "+" | "#" | "." | "/" | ";" | "?" | "&";
  readonly names: readonly string[];
}

/** A parsed template: literals and expressions in order, and the matcher built from them. */
export interface UriTemplate {
  readonly text: string;
  readonly parts: readonly (string | Expression)[];
  /** Every variable name, in order of appearance. */
  readonly variables: readonly string[];
  readonly regex: RegExp;
}

/** A template that RFC 6570 (levels 1-3) does not accept; the message says what to change. */
export class UriTemplateError extends Error {
  readonly code = "URI_TEMPLATE";
  constructor(message: string) {
    super(message);
    this.name = "UriTemplateError";
  }
}

const OPS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/**
 * Parses a URI template (RFC 6570 §2, levels 1-3: `{var}`, `{+var}`, `{#var}`, `{.var}`, `{/var}`,
 * `{;var}`, `{?var}`, `{&var}`, several comma-separated variables in one expression).
 * @param text - the template, e.g. `notes:///{+path}` or `weather://{city}/forecast{?days}`.
 * @returns the parsed template.
 * @throws UriTemplateError on unbalanced braces, an empty or malformed variable name, a level-4
 *   modifier (`*` or `:n`), a variable used twice, or a template with no scheme.
 */
export function parseUriTemplate(text: string): UriTemplate {
  if (typeof text !== "string" || text === "") throw new UriTemplateError("a URI template must be a non-empty string");
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text))
    throw new UriTemplateError(`URI template ${JSON.stringify(text)} must start with a scheme, e.g. "notes:///{path}"`);
  const parts: (string | Expression)[] = [];
  const variables: string[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    const close = text.indexOf("}", i);
    if (close !== -1 && (open === -1 || close < open))
      throw new UriTemplateError(`URI template ${JSON.stringify(text)} has a "}" without its "{" at ${close}`);
    if (open === -1) {
      parts.push(text.slice(i));
      break;
    }
    if (open > i) parts.push(text.slice(i, open));
    if (close === -1)
      throw new UriTemplateError(`URI template ${JSON.stringify(text)} has a "{" without its "}" at ${open}`);
    let body = text.slice(open + 1, close);
    if (body.includes("{"))
      throw new UriTemplateError(`URI template ${JSON.stringify(text)} nests "{" inside an expression`);
    let op: Expression["op"] = "";
    if (OPS.has(body[0] ?? "")) {
      op = body[0] as Expression["op"];
      body = body.slice(1);
    } else if (/^[=,!@|]/.test(body)) {
      throw new UriTemplateError(
        `URI template ${JSON.stringify(text)}: the operator "${body[0]}" is reserved by RFC 6570 and not defined`,
      );
    }
    const names = body.split(",");
    for (const n of names) {
      if (/[*:]/.test(n)) {
        throw new UriTemplateError(
          `URI template ${JSON.stringify(text)}: "{${text.slice(open + 1, close)}}" uses a level-4 modifier (* or :n); use plain variables ({name}, {+name}, {/name}, {?name})`,
        );
      }
      if (!VARNAME.test(n))
        throw new UriTemplateError(
          `URI template ${JSON.stringify(text)}: ${JSON.stringify(n)} is not a variable name (letters, digits, _ and .)`,
        );
      if (variables.includes(n))
        throw new UriTemplateError(`URI template ${JSON.stringify(text)} uses the variable "${n}" twice`);
      variables.push(n);
    }
    parts.push({ op, names });
    i = close + 1;
  }
  return { text, parts, variables, regex: buildRegex(parts) };
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One value of a simple expansion, a reserved one, and one inside a labelled operator. */
const SIMPLE = "[^/?#&,;=]+";
const RESERVED = "[^?#,]+";
const RESERVED_ONE = "[^?#]+";

/**
 * A literal part of a template as a pattern: a character a URI carries only percent-encoded (non-ASCII, a space,
 * …) matches as written or as its UTF-8 escapes in either case of hex (RFC 3986 §2.1, §3.3: a conforming client
 * sends `docs:///caf%C3%A9/x` for `docs:///café/{item}`).
 */
function literalRegex(text: string): string {
  let out = "";
  for (const ch of text) {
    if (RESERVED_CHARS.test(ch) || ch === "%") out += escapeRegex(ch);
    else {
      const hex = [...new TextEncoder().encode(ch)].map((b) => b.toString(16).toUpperCase().padStart(2, "0"));
      const escaped = hex
        .map((h) => `%${[...h].map((c) => (/[A-F]/.test(c) ? `[${c}${c.toLowerCase()}]` : c)).join("")}`)
        .join("");
      out += `(?:${escapeRegex(ch)}|${escaped})`;
    }
  }
  return out;
}

function buildRegex(parts: readonly (string | Expression)[]): RegExp {
  let src = "^";
  for (const p of parts) {
    if (typeof p === "string") {
      src += literalRegex(p);
      continue;
    }
    const { op, names } = p;
    const one = names.length === 1;
    switch (op) {
      case "":
        src += names.map(() => `(${SIMPLE})`).join(",");
        break;
      case "+":
        src += names.map(() => `(${one ? RESERVED_ONE : RESERVED})`).join(",");
        break;
      case "#":
        src += `#${names.map(() => `(${one ? "[^,]+" : "[^,]+"})`).join(",")}`;
        break;
      case ".":
        src += names.map(() => `(?:\\.([^/?#.,;]*))?`).join("");
        break;
      case "/":
        src += names.map(() => `(?:/([^/?#,;]*))?`).join("");
        break;
      case ";":
        src += names.map((n) => `(?:;${escapeRegex(n)}(?:=([^/?#;,]*))?)?`).join("");
        break;
      case "?":
      case "&":
        // Query parameters may come in any order: one group takes them all, read by name afterwards.
        src += `((?:[${op === "?" ? "?" : "&"}][^#]*)?)`;
        break;
    }
  }
  return new RegExp(`${src}$`);
}

/** Percent-decodes, or undefined for a malformed escape. */
function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/**
 * Matches a URI against a template (the inverse of expansion, RFC 6570 §1.4: best effort, exact
 * for URIs the template's own expansion produces). Values are percent-decoded; a variable the URI
 * leaves out (an optional `{/x}`, `{.x}`, `{;x}` or query parameter) is absent from the result.
 * @param t - a parsed template.
 * @param uri - the URI to match.
 * @returns the variables by name, or undefined when the URI is not of the template's form.
 */
export function matchUriTemplate(t: UriTemplate, uri: string): Record<string, string> | undefined {
  const m = t.regex.exec(uri);
  if (!m) return undefined;
  const out: Record<string, string> = {};
  let g = 1;
  for (const p of t.parts) {
    if (typeof p === "string") continue;
    if (p.op === "?" || p.op === "&") {
      const q = m[g++] ?? "";
      if (q === "") continue;
      for (const pair of q.slice(1).split("&")) {
        const eq = pair.indexOf("=");
        const key = decode(eq === -1 ? pair : pair.slice(0, eq));
        if (key === undefined || !p.names.includes(key)) {
          if (key === undefined) return undefined;
          continue;
        }
        const value = decode(eq === -1 ? "" : pair.slice(eq + 1));
        if (value === undefined) return undefined;
        out[key] = value;
      }
      continue;
    }
    for (const n of p.names) {
      const raw = m[g++];
      if (raw === undefined) continue;
      const value = p.op === ";" && raw === "" ? "" : decode(raw);
      if (value === undefined) return undefined;
      out[n] = value;
    }
  }
  return out;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED_CHARS = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/;

function encode(value: string, allowReserved: boolean): string {
  let out = "";
  for (const ch of value) {
    if ((allowReserved ? RESERVED_CHARS : UNRESERVED).test(ch)) out += ch;
    else if (allowReserved && ch === "%") out += "%";
    else out += encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

/**
 * Expands a template with string values (RFC 6570 §3); an undefined variable is left out with its
 * separator, as the RFC says.
 * @param t - a parsed template.
 * @param vars - values by variable name.
 * @returns the URI.
 */
export function expandUriTemplate(t: UriTemplate, vars: Readonly<Record<string, string | undefined>>): string {
  let out = "";
  for (const p of t.parts) {
    if (typeof p === "string") {
      out += p;
      continue;
    }
    const defined = p.names.filter((n) => vars[n] !== undefined);
    if (defined.length === 0) continue;
    const reserved = p.op === "+" || p.op === "#";
    const enc = (n: string) => encode(vars[n]!, reserved);
    switch (p.op) {
      case "":
      case "+":
        out += defined.map(enc).join(",");
        break;
      case "#":
        out += `#${defined.map(enc).join(",")}`;
        break;
      case ".":
      case "/":
        out += defined.map((n) => `${p.op}${enc(n)}`).join("");
        break;
      case ";":
        out += defined.map((n) => (vars[n] === "" ? `;${n}` : `;${n}=${enc(n)}`)).join("");
        break;
      case "?":
      case "&":
        out += defined.map((n, i) => `${i === 0 ? p.op : "&"}${n}=${enc(n)}`).join("");
        break;
    }
  }
  return out;
}

/**
 * Whether a matched value would climb out of where it stands: a `..` path segment (split on `/` and
 * `\`, after percent-decoding), as in `notes:///../etc/passwd` or `notes:///a/%2E%2E/b`.
 * @param value - a decoded variable value.
 */
export function escapesPath(value: string): boolean {
  return value.split(/[/\\]/).some((s) => s === "..");
}
