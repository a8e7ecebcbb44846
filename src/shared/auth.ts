/** @module The verified caller of an HTTP request (`ctx.auth`) and the scope check every capability shares: a shared shape (src/shared/), imports nothing. */

/**
 * Who a request was authorized as. With the static `http.token` only `token` is set; with `http.auth`
 * (OAuth 2.1, MCP 2025-11-25 basic/authorization) the fields of the verified access token.
 */
export interface AuthInfo {
  /** The bearer token as sent. Never logged, traced or forwarded to upstreams or OpenAPI targets by mcpbin. */
  readonly token: string;
  /** The token's subject (`sub`): the user, or the client itself for client credentials. */
  readonly subject?: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`, else Entra's `appid`). */
  readonly clientId?: string;
  /** The scopes granted (`scope`, or `scp`). Absent for the static token, which is not scope-checked. */
  readonly scopes?: readonly string[];
  /** The issuer that vouched for the token (`iss`). */
  readonly issuer?: string;
  /** Every claim of the token (JWT payload, or the introspection answer). */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** When the token expires, seconds since the epoch (`exp`), when it says. */
  readonly expiresAt?: number;
}

/**
 * The scopes of `needed` that `auth` lacks. A caller without OAuth scopes (stdio, the static token, no
 * `http.auth`) is not scope-checked: the scopes of a tool, resource or prompt apply to OAuth callers.
 * @param auth - the request's caller, if any.
 * @param needed - the scopes a tool, resource or prompt declares.
 * @returns the missing scopes (empty when allowed).
 */
export function missingScopes(auth: AuthInfo | undefined, needed: readonly string[] | undefined): string[] {
  if (needed === undefined || needed.length === 0 || auth?.scopes === undefined) return [];
  const granted = auth.scopes;
  return needed.filter((s) => !granted.includes(s));
}

/** True for an array of scope tokens (RFC 6749 §3.3: printable ASCII without space, `"` or `\`). */
export function isScopes(x: unknown): x is readonly string[] {
  return Array.isArray(x) && x.every((s) => typeof s === "string" && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s));
}
