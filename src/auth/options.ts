/** @module The `http.auth` option (OAuth 2.1 resource server): its defaults and start-time checks (its shape is src/shared/http-options.ts). */
import { isScopes } from "../shared/auth.ts";
import { unknownKey } from "../shared/option-keys.ts";
import type { AuthOptions, IntrospectionOptions } from "../shared/http-options.ts";

/** `http.auth` checked, with defaults. */
export interface ResolvedAuth {
  readonly issuers: readonly string[];
  readonly resource: string | undefined;
  readonly audience: readonly string[] | undefined;
  readonly scopes: readonly string[];
  readonly introspection: IntrospectionOptions | undefined;
  readonly clockSkewSeconds: number;
  readonly scopeFailure: "http" | "result";
  readonly resourceName: string | undefined;
}

/** A bad `http.auth`: says what to change. */
export class AuthOptionsError extends Error {
  readonly code = "AUTH_OPTIONS";
  constructor(message: string) {
    super(message);
    this.name = "AuthOptionsError";
  }
}

const KEYS = [
  "issuer",
  "issuers",
  "resource",
  "audience",
  "scopes",
  "introspection",
  "clockSkewSeconds",
  "scopeFailure",
  "resourceName",
];

/**
 * The first key of `http.auth` that is not an option, as a message naming the nearest one and the allowed keys.
 * @param a - the option as given (an object).
 * @returns undefined, or the message.
 */
export function authKeyProblem(a: object): string | undefined {
  return unknownKey(a, KEYS, "http.auth.");
}

/**
 * Checks `http.auth` and fills in its defaults.
 * @param a - the option as given.
 * @param loopbackOnly - whether the server is bound to loopback (then `resource` may be left out).
 * @returns the resolved options.
 * @throws AuthOptionsError naming the key and what to change.
 */
export function resolveAuth(a: AuthOptions, loopbackOnly: boolean): ResolvedAuth {
  if (typeof a !== "object" || a === null || Array.isArray(a))
    throw new AuthOptionsError(`http.auth must be an object { issuer, resource, audience?, scopes?, introspection? }`);
  const unknown = authKeyProblem(a);
  if (unknown) throw new AuthOptionsError(unknown);
  if ((a.issuer === undefined) === (a.issuers === undefined))
    throw new AuthOptionsError(`http.auth needs "issuer" (a URL) or "issuers" (an array of URLs), one of them`);
  const issuers = a.issuer !== undefined ? [a.issuer] : a.issuers;
  if (!Array.isArray(issuers) || issuers.length === 0)
    throw new AuthOptionsError(`http.auth.issuers must be a non-empty array of issuer URLs`);
  for (const i of issuers) checkUrl(`http.auth.issuer${a.issuers ? "s" : ""}`, i);
  if (a.resource !== undefined) checkUrl("http.auth.resource", a.resource, true);
  else if (!loopbackOnly) {
    throw new AuthOptionsError(
      `http.auth.resource is required when the server is not bound to loopback only: set it to the public URL of the endpoint (e.g. "https://mcp.example.com/mcp")`,
    );
  }
  const audience = a.audience === undefined ? undefined : typeof a.audience === "string" ? [a.audience] : a.audience;
  if (
    audience !== undefined &&
    (!Array.isArray(audience) || audience.length === 0 || !audience.every((x) => typeof x === "string" && x !== ""))
  ) {
    throw new AuthOptionsError(
      `http.auth.audience must be a non-empty string or array of strings (the "aud" tokens carry)`,
    );
  }
  const scopes = a.scopes ?? [];
  if (!isScopes(scopes))
    throw new AuthOptionsError(`http.auth.scopes must be an array of scope names (no spaces or quotes)`);
  const i = a.introspection;
  if (i !== undefined) {
    if (typeof i !== "object" || i === null)
      throw new AuthOptionsError(`http.auth.introspection must be { url, clientId, clientSecret }`);
    checkUrl("http.auth.introspection.url", i.url);
    for (const k of ["clientId", "clientSecret"] as const) {
      if (typeof i[k] !== "string" || i[k] === "")
        throw new AuthOptionsError(`http.auth.introspection.${k} must be a non-empty string`);
    }
  }
  const skew = a.clockSkewSeconds ?? 30;
  if (typeof skew !== "number" || !(skew >= 0 && skew <= 600))
    throw new AuthOptionsError(`http.auth.clockSkewSeconds must be a number of seconds from 0 to 600`);
  const scopeFailure = a.scopeFailure ?? "http";
  if (scopeFailure !== "http" && scopeFailure !== "result")
    throw new AuthOptionsError(`http.auth.scopeFailure must be "http" or "result"`);
  if (a.resourceName !== undefined && (typeof a.resourceName !== "string" || a.resourceName === ""))
    throw new AuthOptionsError(`http.auth.resourceName must be a non-empty string`);
  return {
    issuers,
    resource: a.resource,
    audience,
    scopes,
    introspection: i,
    clockSkewSeconds: skew,
    scopeFailure,
    resourceName: a.resourceName,
  };
}

/** An https URL, or http on loopback (a local test IdP); no fragment. */
function checkUrl(name: string, u: unknown, anyHttp = false): void {
  let url: URL;
  try {
    url = new URL(String(u));
  } catch {
    throw new AuthOptionsError(`${name} must be an absolute URL; got ${JSON.stringify(u)}`);
  }
  if (typeof u !== "string" || url.hash !== "")
    throw new AuthOptionsError(`${name} must be an absolute URL without a fragment; got ${JSON.stringify(u)}`);
  const loop = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && (loop || anyHttp))) {
    throw new AuthOptionsError(`${name} must be an https URL (http only on loopback); got ${JSON.stringify(u)}`);
  }
}
