/** @module The HTTP request of one operation call: path template, parameter styles, headers, cookies and the body by media type. */
import type { Applied } from "./auth.ts";
import type { ArgField, Operation } from "./operations.ts";

/** A request ready for `fetch`: URL, method, headers and body. */
export interface BuiltRequest {
  readonly url: string;
  readonly init: { method: string; headers: Headers; body?: string | FormData | URLSearchParams };
}

const enc = encodeURIComponent;

/** An argument that would change which route a request reaches; the message names the parameter(s). */
export class PathValueError extends Error {
  readonly code = "OPENAPI_PATH_VALUE";
  constructor(message: string) {
    super(message);
    this.name = "PathValueError";
  }
}

/**
 * An argument that would set a query key, cookie or header the credentials (or the `headers` option) set: the server
 * would see the argument's value first, or instead. The message names the parameter and the slot.
 */
export class CredentialSlotError extends Error {
  readonly code = "OPENAPI_CREDENTIAL_SLOT";
  constructor(message: string) {
    super(message);
    this.name = "CredentialSlotError";
  }
}

/** A segment the URL parser removes or climbs with (`.`, `..`, also percent-encoded: WHATWG URL treats `%2e` as a dot). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * Whether a filled segment holds a `.` or `..` segment for a server that decodes it (once or more) and splits it on
 * `/` or `\` (nginx and many frameworks decode `%2F` before routing; IIS and others take `\` for `/`; a gateway may
 * decode twice; some normalise full-width dots): `a/../b`, `..\x`, `%2e%2e`, `..%2f`, `..;x`, `．．`.
 */
function climbsWhenDecoded(segment: string): boolean {
  let s = segment;
  for (let round = 0; round < 4; round++) {
    if (
      s
        .normalize("NFKC")
        .split(/[/\\]/)
        .map((p) => p.split(/[;\0]/)[0]) // Tomcat drops `;params`, C servers stop at NUL: `..;x`, `..%00`
        .some((p) => p === "." || p === "..")
    )
      return true;
    let next: string;
    try {
      next = decodeURIComponent(s);
    } catch {
      next = s.replace(/%(2e|2f|5c)/gi, (m) => decodeURIComponent(m));
    }
    if (next === s) return false;
    s = next;
  }
  return true; // still encoded after four rounds: no API needs that
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Fills a path template segment by segment and refuses a segment that the values make a dot segment (`..`
 * would climb to another route, `.` drop one) or empty (the parent route), or one that holds a dot segment once
 * decoded or split at `/` or `\\` ({@link climbsWhenDecoded}): the request would reach an operation the tool does not
 * name, past include/exclude/readOnly curation, with the API's credentials. Values are already percent-encoded, so
 * a `/` in a value never makes a new segment for a server that does not decode it.
 * @param template - the operation's path template, e.g. `/files/{id}/meta`.
 * @param values - the serialized value of each path parameter by name.
 * @returns the path.
 * @throws PathValueError naming the parameters of the refused segment.
 */
export function fillPath(template: string, values: ReadonlyMap<string, string>): string {
  return template
    .split("/")
    .map((seg) => {
      const names: string[] = [];
      const out = seg.replace(/\{([^}]+)\}/g, (m, name: string) => {
        const v = values.get(name);
        if (v === undefined) return m;
        names.push(name);
        return v;
      });
      if (names.length > 0 && (DOT_SEGMENT.test(out) || out === "") && !(DOT_SEGMENT.test(seg) || seg === "")) {
        const which = names.map((n) => JSON.stringify(n)).join(" and ");
        const what =
          out === ""
            ? "an empty path segment, which reaches the parent route"
            : `the path segment ${JSON.stringify(safeDecode(out))}, which URL normalisation turns into another route`;
        throw new PathValueError(`path parameter ${which}: the value would make ${what}; nothing was sent`);
      }
      if (names.length > 0 && climbsWhenDecoded(out) && !climbsWhenDecoded(seg)) {
        const which = names.map((n) => JSON.stringify(n)).join(" and ");
        const what = `the path segment ${JSON.stringify(safeDecode(out))}, which holds a "." or ".." segment once decoded or split at a slash or backslash (a server that decodes it reaches another route)`;
        throw new PathValueError(`path parameter ${which}: the value would make ${what}; nothing was sent`);
      }
      return out;
    })
    .join("/");
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** Serializes a path or header value (styles simple, label, matrix), values percent-encoded when `encode`. */
function pathValue(f: ArgField, v: unknown, encode: boolean): string {
  const e = encode ? enc : (s: string) => s;
  const items = (sep: string, kv: string): string[] =>
    Array.isArray(v)
      ? v.map((x) => e(scalar(x)))
      : typeof v === "object" && v !== null
        ? Object.entries(v).flatMap(([k, x]) => (f.explode ? [`${e(k)}${kv}${e(scalar(x))}`] : [e(k), e(scalar(x))]))
        : [e(scalar(v))];
  const isObj = typeof v === "object" && v !== null && !Array.isArray(v);
  if (f.style === "label") return `.${items(".", "=").join(f.explode ? "." : ",")}`;
  if (f.style === "matrix") {
    if (Array.isArray(v))
      return f.explode
        ? v.map((x) => `;${e(f.name)}=${e(scalar(x))}`).join("")
        : `;${e(f.name)}=${items(",", "=").join(",")}`;
    if (isObj)
      return f.explode
        ? items(";", "=")
            .map((s) => `;${s}`)
            .join("")
        : `;${e(f.name)}=${items(",", "=").join(",")}`;
    return `;${e(f.name)}=${e(scalar(v))}`;
  }
  return items(",", "=").join(",");
}

/** The `name=value` pairs of a query parameter (styles form, spaceDelimited, pipeDelimited, deepObject), encoded. */
function queryPairs(f: ArgField, v: unknown): string[] {
  const n = enc(f.name);
  if (Array.isArray(v)) {
    if (f.style === "spaceDelimited" && !f.explode) return [`${n}=${v.map((x) => enc(scalar(x))).join("%20")}`];
    if (f.style === "pipeDelimited" && !f.explode) return [`${n}=${v.map((x) => enc(scalar(x))).join("|")}`];
    return f.explode ? v.map((x) => `${n}=${enc(scalar(x))}`) : [`${n}=${v.map((x) => enc(scalar(x))).join(",")}`];
  }
  if (typeof v === "object" && v !== null) {
    const entries = Object.entries(v);
    if (f.style === "deepObject") return entries.map(([k, x]) => `${n}%5B${enc(k)}%5D=${enc(scalar(x))}`);
    return f.explode
      ? entries.map(([k, x]) => `${enc(k)}=${enc(scalar(x))}`)
      : [`${n}=${entries.map(([k, x]) => `${enc(k)},${enc(scalar(x))}`).join(",")}`];
  }
  return [`${n}=${enc(scalar(v))}`];
}

/** The decoded name of an encoded `name=value` pair (query string or cookie). */
function pairName(pair: string): string {
  return safeDecode(pair.split("=", 1)[0]!);
}

/**
 * Refuses a request whose arguments set a slot the credentials fill: a query key the auth layer adds (an exploded
 * object's keys included), a cookie it adds, or a header it or the `headers` option sets (names compared as HTTP
 * does: header names without case).
 * @throws CredentialSlotError naming the parameter and the slot; nothing is sent.
 */
function refuseCredentialSlots(
  op: Operation,
  args: Record<string, unknown>,
  query: readonly string[],
  cookies: readonly string[],
  auth: Applied,
  extraHeaders: Readonly<Record<string, string>>,
): void {
  const refuse = (slot: string) => {
    throw new CredentialSlotError(`${slot} is set by the API's credentials, not by an argument; nothing was sent`);
  };
  const queryKeys = new Set(auth.query.map(([k]) => k));
  for (const pair of query) if (queryKeys.has(pairName(pair))) refuse(`query key ${pairName(pair)}`);
  const cookieNames = new Set(auth.cookies.map(([k]) => k));
  for (const pair of cookies) if (cookieNames.has(pairName(pair))) refuse(`cookie ${pairName(pair)}`);
  const set = new Set([...auth.headers.map(([k]) => k), ...Object.keys(extraHeaders)].map((k) => k.toLowerCase()));
  for (const f of op.fields)
    if (f.in === "header" && args[f.arg] !== undefined && set.has(f.name.toLowerCase())) refuse(`header ${f.name}`);
}

function formValue(form: { append(k: string, v: string): void }, k: string, v: unknown): void {
  if (v === undefined) return;
  if (Array.isArray(v)) for (const x of v) form.append(k, scalar(x));
  else form.append(k, scalar(v));
}

/**
 * Builds the request of one call.
 * @param op - the operation.
 * @param args - validated arguments (keys are the fields' `arg`).
 * @param base - the base URL (no trailing slash needed), e.g. `https://api.example.com/v1`.
 * @param auth - what the security requirements add.
 * @param extraHeaders - configured headers sent with every request.
 * @returns URL and fetch init.
 * @throws PathValueError when a path value would make a dot segment or an empty one ({@link fillPath}).
 */
export function buildRequest(
  op: Operation,
  args: Record<string, unknown>,
  base: string,
  auth: Applied,
  extraHeaders: Readonly<Record<string, string>>,
): BuiltRequest {
  const pathValues = new Map<string, string>();
  const query: string[] = [];
  const headers = new Headers();
  const cookies: string[] = [];
  let bodyObject: Record<string, unknown> | undefined;
  let body: unknown;
  let hasBody = false;
  for (const [k, v] of Object.entries(extraHeaders)) headers.set(k, v);
  for (const f of op.fields) {
    const v = args[f.arg];
    if (v === undefined) continue;
    switch (f.in) {
      case "path":
        pathValues.set(f.name, pathValue(f, v, true));
        break;
      case "query":
        query.push(...queryPairs(f, v));
        break;
      case "header":
        headers.set(f.name, pathValue(f, v, false));
        break;
      case "cookie":
        cookies.push(`${f.name}=${Array.isArray(v) ? v.map((x) => enc(scalar(x))).join(",") : enc(scalar(v))}`);
        break;
      case "bodyProperty":
        (bodyObject ??= {})[f.name] = v;
        hasBody = true;
        break;
      case "body":
        body = v;
        hasBody = true;
        break;
    }
  }
  const path = fillPath(op.path, pathValues);
  refuseCredentialSlots(op, args, query, cookies, auth, extraHeaders);
  for (const [k, v] of auth.query) query.push(`${enc(k)}=${enc(v)}`);
  for (const [k, v] of auth.headers) headers.set(k, v);
  for (const [k, v] of auth.cookies) cookies.push(`${k}=${enc(v)}`);
  if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
  if (!headers.has("accept")) headers.set("accept", "application/json, */*;q=0.8");
  const init: BuiltRequest["init"] = { method: op.method, headers };
  if (bodyObject !== undefined) body = bodyObject;
  // No body argument given: no body is sent (the API applies its own defaults).
  if (hasBody && op.bodyType !== undefined) {
    const type = op.bodyType.toLowerCase().split(";")[0]!.trim();
    if (type === "application/x-www-form-urlencoded") {
      const form = new URLSearchParams();
      if (typeof body === "object" && body !== null) for (const [k, v] of Object.entries(body)) formValue(form, k, v);
      init.body = form;
      headers.set("content-type", op.bodyType);
    } else if (type === "multipart/form-data") {
      const form = new FormData();
      if (typeof body === "object" && body !== null) for (const [k, v] of Object.entries(body)) formValue(form, k, v);
      init.body = form; // fetch writes the content type with its boundary
    } else if (type === "application/json" || type.endsWith("+json") || type === "*/*") {
      init.body = JSON.stringify(body);
      headers.set("content-type", type === "*/*" ? "application/json" : op.bodyType);
    } else {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      headers.set("content-type", op.bodyType);
    }
  }
  const url = `${base.replace(/\/+$/, "")}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
  return { url, init };
}
