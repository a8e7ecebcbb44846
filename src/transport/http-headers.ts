/** @module The 2026-07-28 standard request headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) checked against the body. */
import type { Message } from "../protocol/jsonrpc.ts";

/** Methods whose `Mcp-Name` header mirrors a body field (2026-07-28 Streamable HTTP, standard headers; the tasks extension's "Routing Headers" for tasks/*). */
const NAME_SOURCE: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/**
 * The first 2026-07-28 header check (Streamable HTTP, server validation), made before the version
 * gate: `MCP-Protocol-Version` is required and must equal the `_meta` version.
 * @returns a reason for -32020 (HTTP 400), or undefined.
 */
export function versionMismatch(req: Request, claim: string): string | undefined {
  const pv = req.headers.get("mcp-protocol-version");
  if (pv === null) return "Header mismatch: the MCP-Protocol-Version header is required";
  if (pv.trim() !== claim)
    return `Header mismatch: MCP-Protocol-Version ${JSON.stringify(pv.trim())} differs from _meta version ${JSON.stringify(claim)}`;
  return undefined;
}

/**
 * The other 2026-07-28 standard-header checks, on requests: `Mcp-Method` must equal the method and
 * `Mcp-Name` the `params.name`/`params.uri` it mirrors. Values may be `=?base64?…?=` and carry
 * surrounding whitespace.
 * @returns a reason for -32020 (HTTP 400), or undefined when the headers agree with the body.
 */
export function headerMismatch(req: Request, msg: Message, params: Record<string, unknown>): string | undefined {
  if (msg.id === undefined) return undefined;
  const mm = req.headers.get("mcp-method");
  if (mm === null) return "Header mismatch: the Mcp-Method header is required";
  const method = decodeHeaderValue(mm);
  if (method !== msg.method)
    return `Header mismatch: Mcp-Method ${JSON.stringify(mm.trim())} differs from the body's method ${JSON.stringify(msg.method)}`;
  const field = Object.hasOwn(NAME_SOURCE, msg.method) ? NAME_SOURCE[msg.method] : undefined;
  const value = field === undefined ? undefined : params[field];
  if (typeof value !== "string") return undefined;
  const mn = req.headers.get("mcp-name");
  if (mn === null) return `Header mismatch: the Mcp-Name header is required for ${msg.method}`;
  const name = decodeHeaderValue(mn);
  if (name === undefined) return "Header mismatch: Mcp-Name is not valid =?base64?…?= text";
  if (name !== value)
    return `Header mismatch: Mcp-Name ${JSON.stringify(name)} differs from params.${field} ${JSON.stringify(value)}`;
  return undefined;
}

/**
 * Decodes an `Mcp-Name`/`Mcp-Method` header value: surrounding whitespace is dropped (RFC 9110 §5.5)
 * and `=?base64?…?=` is UTF-8 Base64 (2026-07-28 Streamable HTTP, value encoding).
 * @returns the value, or undefined when the Base64 form is malformed.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const v = raw.trim();
  if (!(v.startsWith("=?base64?") && v.endsWith("?="))) return v;
  const b64 = v.slice(9, -2);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(b64, "base64"));
  } catch {
    return undefined;
  }
}
