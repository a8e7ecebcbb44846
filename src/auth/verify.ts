/** @module Access-token verification for the resource server: JWTs against each trusted issuer's JWKS (jose), opaque tokens by RFC 7662 introspection. */
import { logLine } from "../runtime/log-name.ts";
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";
import * as oauth from "oauth4webapi";
import type { ResolvedAuth } from "./options.ts";
import type { AuthInfo } from "../shared/auth.ts";
import { clock } from "./clock.ts";
import { TokenError } from "./token-error.ts";

export { TokenError };

type Jwks = ReturnType<typeof createRemoteJWKSet>;

/** How long a network answer may take (discovery, JWKS, introspection), ms. */
const FETCH_MS = 10_000;
/** A failed discovery is not retried for this long, ms (a flood of tokens must not become a flood of fetches). */
const RETRY_MS = 10_000;
/** Introspection answers kept (by token digest), at most; each for at most a minute or until `exp`. */
const MAX_CACHED = 1000;

/**
 * Verifies bearer tokens for one server. JWKS are discovered from each trusted issuer's metadata
 * (OpenID discovery, else RFC 8414, the `issuer` in it checked), fetched on first use, cached, and
 * refetched when a token names a key id not in the cached set (jose's remote JWK set). A token whose `iss`
 * is not trusted is refused before anything is fetched.
 */
export class TokenVerifier {
  readonly #jwks = new Map<string, Promise<Jwks>>();
  readonly #failedAt = new Map<string, number>();
  readonly #introspected = new Map<string, { info: AuthInfo; until: number }>();

  /** @param o - the resolved `http.auth`. */
  constructor(readonly o: ResolvedAuth) {}

  /**
   * Verifies one token for a resource.
   * @param token - the bearer token.
   * @param resource - this endpoint's resource identifier (the default audience).
   * @returns the caller.
   * @throws TokenError when the token is not acceptable (say why, without the token).
   */
  async verify(token: string, resource: string): Promise<AuthInfo> {
    const audience = [...(this.o.audience ?? [resource])];
    if (looksLikeJwt(token)) return this.#verifyJwt(token, audience);
    if (this.o.introspection) return this.#introspect(token, audience);
    throw new TokenError(
      "the token is not a JWT and no introspection endpoint is configured (http.auth.introspection)",
    );
  }

  async #verifyJwt(token: string, audience: string[]): Promise<AuthInfo> {
    let iss: unknown;
    try {
      decodeProtectedHeader(token);
      iss = decodeJwt(token).iss;
    } catch {
      throw new TokenError("the token is not a well-formed JWT");
    }
    if (typeof iss !== "string" || !this.o.issuers.includes(iss))
      throw new TokenError("the token's issuer is not trusted");
    const jwks = await this.#jwksOf(iss);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: iss,
        audience,
        clockTolerance: this.o.clockSkewSeconds,
        requiredClaims: ["exp"],
        currentDate: new Date(clock.now()),
      }));
    } catch (e) {
      throw new TokenError(jwtReason(e));
    }
    return infoOf(token, payload as Record<string, unknown>, iss);
  }

  #jwksOf(issuer: string): Promise<Jwks> {
    const cached = this.#jwks.get(issuer);
    if (cached) return cached;
    const failed = this.#failedAt.get(issuer);
    if (failed !== undefined && Date.now() - failed < RETRY_MS)
      return Promise.reject(new TokenError("the issuer's metadata could not be fetched; retry later"));
    const p = discover(issuer).then((as) => {
      if (typeof as.jwks_uri !== "string") throw new TokenError("the issuer's metadata has no jwks_uri");
      return createRemoteJWKSet(new URL(as.jwks_uri), {
        timeoutDuration: FETCH_MS,
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
      });
    });
    this.#jwks.set(issuer, p);
    p.catch((e: unknown) => {
      this.#jwks.delete(issuer);
      this.#failedAt.set(issuer, Date.now());
      logLine(`auth: discovery of ${issuer} failed: ${(e as Error)?.message ?? e}`);
    });
    return p.catch(() => {
      throw new TokenError("the issuer's metadata could not be fetched; retry later");
    });
  }

  async #introspect(token: string, audience: string[]): Promise<AuthInfo> {
    const key = new Bun.CryptoHasher("sha256").update(token).digest("base64url");
    const hit = this.#introspected.get(key);
    if (hit && hit.until > clock.now()) return hit.info;
    const i = this.o.introspection!;
    const as: oauth.AuthorizationServer = { issuer: this.o.issuers[0]!, introspection_endpoint: i.url };
    let claims: Record<string, unknown>;
    try {
      const res = await oauth.introspectionRequest(
        as,
        { client_id: i.clientId },
        oauth.ClientSecretBasic(i.clientSecret),
        token,
        {
          [oauth.allowInsecureRequests]: new URL(i.url).protocol === "http:",
          signal: AbortSignal.timeout(FETCH_MS),
        },
      );
      claims = (await oauth.processIntrospectionResponse(as, { client_id: i.clientId }, res)) as Record<
        string,
        unknown
      >;
    } catch (e) {
      logLine(`auth: introspection failed: ${(e as Error)?.message ?? e}`);
      throw new TokenError("the token could not be introspected; retry later");
    }
    if (claims.active !== true) throw new TokenError("the token is not active");
    const now = clock.now() / 1000;
    const skew = this.o.clockSkewSeconds;
    if (typeof claims.exp === "number" && claims.exp + skew < now) throw new TokenError("the token has expired");
    if (typeof claims.nbf === "number" && claims.nbf - skew > now) throw new TokenError("the token is not valid yet");
    if (claims.iss !== undefined && !this.o.issuers.includes(claims.iss as string))
      throw new TokenError("the token's issuer is not trusted");
    // An answer without `aud` says nothing of whom the token is for: refused, as a JWT without `aud` is (RFC 8707).
    const aud = typeof claims.aud === "string" ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : undefined;
    if (aud === undefined || aud.length === 0) throw new TokenError("the token names no audience");
    if (!aud.some((a) => audience.includes(a))) throw new TokenError("the token is for another audience");
    const info = infoOf(token, claims, typeof claims.iss === "string" ? claims.iss : this.o.issuers[0]!);
    if (this.#introspected.size >= MAX_CACHED) this.#introspected.delete(this.#introspected.keys().next().value!);
    const until = Math.min(clock.now() + 60_000, typeof claims.exp === "number" ? claims.exp * 1000 : Infinity);
    this.#introspected.set(key, { info, until });
    return info;
  }
}

/**
 * Discovers an issuer's authorization-server metadata: OpenID discovery (`/.well-known/openid-configuration`
 * appended), else RFC 8414 (`/.well-known/oauth-authorization-server` inserted before the path); the document's
 * `issuer` must equal the issuer (oauth4webapi checks it).
 * @param issuer - the issuer identifier.
 * @param fetchImpl - for tests and the client.
 * @returns the metadata.
 * @throws when neither document is there or the issuer differs.
 */
export async function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  const insecure = url.protocol === "http:";
  let last: unknown;
  for (const algorithm of ["oidc", "oauth2"] as const) {
    try {
      const res = await oauth.discoveryRequest(url, {
        algorithm,
        [oauth.allowInsecureRequests]: insecure,
        signal: AbortSignal.timeout(FETCH_MS),
      });
      return await oauth.processDiscoveryResponse(url, res);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

/** Three base64url parts, the first a JSON header: a JWS compact serialization. */
function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

/** A jose failure in words for a client (the claim, never the token). */
function jwtReason(e: unknown): string {
  if (e instanceof errors.JWTExpired) return "the token has expired";
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === "aud") return "the token is for another audience";
    if (e.claim === "nbf") return "the token is not valid yet";
    return `the token's "${e.claim}" claim is not acceptable`;
  }
  if (e instanceof errors.JWKSNoMatchingKey) return "the token was signed with a key the issuer does not publish";
  if (e instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (e instanceof errors.JOSEAlgNotAllowed || e instanceof errors.JOSENotSupported)
    return "the token's algorithm is not accepted";
  return "the token could not be verified";
}

/** The caller of a verified token: its subject, client, scopes (`scope` string, or `scp` string or array). */
function infoOf(token: string, claims: Record<string, unknown>, issuer: string): AuthInfo {
  const raw = claims.scope ?? claims.scp;
  const scopes =
    typeof raw === "string"
      ? raw.split(" ").filter(Boolean)
      : Array.isArray(raw)
        ? raw.filter((s): s is string => typeof s === "string")
        : [];
  const clientId = [claims.client_id, claims.azp, claims.appid].find((x): x is string => typeof x === "string");
  return {
    token,
    ...(typeof claims.sub === "string" ? { subject: claims.sub } : {}),
    ...(clientId !== undefined ? { clientId } : {}),
    scopes,
    issuer,
    claims,
    ...(typeof claims.exp === "number" ? { expiresAt: claims.exp } : {}),
  };
}
