/** @module 2026-07-28 custom headers from tool parameters: the `x-mcp-header` annotations of a tool's inputSchema, and the server's check of each `Mcp-Param-{Name}` header against the call's arguments. */
import { decodeHeaderValue } from "./http-headers.ts";

/** One annotated parameter: where its value is in the arguments, its header name, its JSON type. */
export interface ParamHeader {
  readonly path: readonly string[];
  readonly name: string;
  readonly type: string | undefined;
}

type Schema = Record<string, unknown>;
const cache = new WeakMap<object, readonly ParamHeader[]>();
const NONE: readonly ParamHeader[] = Object.freeze([]);

/**
 * The `x-mcp-header` annotations of an inputSchema, reachable from its root through `properties` keys only
 * (MCP 2026-07-28 basic/transports/streamable-http, custom headers from tool parameters). Computed once per schema.
 * @param schema - a tool's inputSchema.
 * @returns the annotated parameters (usually none).
 */
export function paramHeaders(schema: object): readonly ParamHeader[] {
  let found = cache.get(schema);
  if (found === undefined) {
    const out: ParamHeader[] = [];
    walk(schema as Schema, [], out, 0);
    found = out.length === 0 ? NONE : out;
    cache.set(schema, found);
  }
  return found;
}

function walk(s: Schema, path: string[], out: ParamHeader[], depth: number): void {
  const props = s.properties;
  if (depth > 32 || typeof props !== "object" || props === null) return;
  for (const [key, sub] of Object.entries(props as Record<string, unknown>)) {
    if (typeof sub !== "object" || sub === null) continue;
    const p = sub as Schema;
    const name = p["x-mcp-header"];
    if (typeof name === "string")
      out.push({ path: [...path, key], name, type: typeof p.type === "string" ? p.type : undefined });
    walk(p, [...path, key], out, depth + 1);
  }
}

/** Header field values: visible ASCII, space and tab (RFC 9110 field values). */
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;

/**
 * Checks every annotated parameter of a `tools/call` against its `Mcp-Param-{Name}` header: a value in the
 * arguments needs its header, the header (Base64 `=?base64?…?=` decoded) must equal the value (integers
 * compared as numbers, booleans as `true`/`false`), and a header with invalid characters or malformed Base64 is
 * refused. A parameter with no value (absent or null) expects no header.
 * @param req - the HTTP request.
 * @param args - the call's `arguments`.
 * @param headers - the tool's annotated parameters ({@link paramHeaders}).
 * @returns the reason for -32020 (HTTP 400), or undefined.
 */
export function paramMismatch(req: Request, args: unknown, headers: readonly ParamHeader[]): string | undefined {
  for (const h of headers) {
    let value: unknown = args;
    for (const k of h.path)
      value =
        typeof value === "object" && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)[k]
          : undefined;
    const field = `Mcp-Param-${h.name}`;
    const raw = req.headers.get(field);
    const where = `arguments.${h.path.join(".")}`;
    if (value === undefined || value === null) {
      if (raw !== null) return `Header mismatch: ${field} is sent but ${where} has no value`;
      continue;
    }
    if (raw === null) return `Header mismatch: the ${field} header is required (${where} has a value)`;
    if (!FIELD_VALUE.test(raw)) return `Header mismatch: ${field} contains characters a header value may not have`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `Header mismatch: ${field} is not valid =?base64?…?= text`;
    const same =
      typeof value === "string"
        ? decoded === value
        : typeof value === "number"
          ? decoded.trim() !== "" && Number(decoded) === value
          : typeof value === "boolean"
            ? decoded === String(value)
            : false;
    if (!same)
      return `Header mismatch: ${field} ${JSON.stringify(decoded)} differs from ${where} ${JSON.stringify(value)}`;
  }
  return undefined;
}
