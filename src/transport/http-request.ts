/** @module What the HTTP handler reads of a request: its path, its bearer token, the owner of the session it opens, its method as the access log names it. */
import type { AuthInfo } from "../shared/auth.ts";

/** Who owns a legacy session: the OAuth issuer and subject, else anyone the transport admitted. */
export function ownerOf(caller: AuthInfo | undefined): string {
  return caller?.subject !== undefined ? `${caller.issuer ?? ""}\u0000${caller.subject}` : "";
}

/** The bearer token of a request's Authorization header, if it has one. */
export function bearerOf(req: Request): string | undefined {
  const a = req.headers.get("authorization");
  if (a === null || a.length < 8 || a.slice(0, 7).toLowerCase() !== "bearer ") return undefined;
  const token = a.slice(7).trim();
  return token === "" ? undefined : token;
}

/** The path of a request URL (Bun gives absolute URLs), without the query. */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const q = url.indexOf("?", start);
  return q === -1 ? url.slice(start) : url.slice(start, q);
}

/** The MCP method for the access log: method names only, never arguments; anything odd is "?". */
export function methodForLog(method: string): string {
  return /^[\w./$-]{1,64}$/.test(method) ? method : "?";
}
