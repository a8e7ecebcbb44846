/** @module The client's discovery (MCP 2025-11-25 basic/authorization): protected-resource metadata (RFC 9728), then the authorization server's (RFC 8414, OpenID discovery), each checked. */
import * as oauth from "oauth4webapi";
import { PRM_PREFIX } from "./http.ts";

/** A failure of sign-in, in words for the person running the client (never a token or secret). */
export class OAuthClientError extends Error {
  readonly code = "OAUTH_CLIENT";
  constructor(message: string) {
    super(message);
    this.name = "OAuthClientError";
  }
}

/** What the protected resource says of itself. */
export interface ResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
}

const FETCH_MS = 15_000;

/** Plain http is allowed for loopback hosts only (a local IdP); everything else must be https. */
export function insecureAllowed(url: URL): boolean {
  return url.protocol === "http:" && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname);
}

async function getJson(url: URL, what: string, fetchImpl: typeof fetch): Promise<Record<string, unknown> | undefined> {
  if (url.protocol !== "https:" && !insecureAllowed(url))
    throw new OAuthClientError(`${what} at ${url.origin} must be https`);
  const res = await fetchImpl(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_MS) });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    return undefined;
  }
  const j = (await res.json().catch(() => undefined)) as unknown;
  return j !== null && typeof j === "object" && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
}

/**
 * The protected-resource metadata of an MCP endpoint: from the challenge's `resource_metadata` URL, else the
 * path-aware well-known URL, else the root one (MCP 2025-11-25 basic/authorization, "Protected Resource
 * Metadata Discovery Requirements"). Its `resource` must name this endpoint (same origin, a prefix of its path),
 * so a server cannot send the client's tokens to another resource's authorization.
 * @param server - the MCP endpoint.
 * @param fromChallenge - the `resource_metadata` of the 401's challenge, if any.
 * @param fetchImpl - fetch.
 * @returns the metadata, or undefined when the server publishes none.
 * @throws OAuthClientError when the document names another resource.
 */
export async function resourceMetadata(
  server: URL,
  fromChallenge: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<ResourceMetadata | undefined> {
  const tries: URL[] = [];
  if (fromChallenge) {
    try {
      tries.push(new URL(fromChallenge, server));
    } catch {}
  }
  const path = server.pathname === "/" ? "" : server.pathname.replace(/\/$/, "");
  if (path) tries.push(new URL(`${PRM_PREFIX}${path}`, server.origin));
  tries.push(new URL(PRM_PREFIX, server.origin));
  for (const url of tries) {
    const doc = await getJson(url, "the protected-resource metadata", fetchImpl).catch(() => undefined);
    if (doc === undefined || typeof doc.resource !== "string") continue;
    if (!resourceMatches(doc.resource, server)) {
      throw new OAuthClientError(
        `the server's protected-resource metadata names the resource ${JSON.stringify(doc.resource)}, not ${server.origin}${server.pathname}: refusing to sign in for it`,
      );
    }
    return doc as unknown as ResourceMetadata;
  }
  return undefined;
}

/** RFC 8707 / MCP: the resource identifier of the endpoint: its URL without fragment or query. */
export function canonicalResource(server: URL): string {
  return `${server.origin}${server.pathname === "/" ? "" : server.pathname}`;
}

function resourceMatches(resource: string, server: URL): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.origin !== server.origin) return false;
  const rp = r.pathname.endsWith("/") ? r.pathname : `${r.pathname}/`;
  const sp = server.pathname.endsWith("/") ? server.pathname : `${server.pathname}/`;
  return sp.startsWith(rp);
}

/**
 * The authorization server's metadata, in the order MCP 2025-11-25 asks: RFC 8414 with the well-known
 * part inserted, OpenID discovery inserted (issuers with a path), OpenID discovery appended. The document's
 * `issuer` must be the issuer (oauth4webapi checks it); a document that names another issuer stops the search.
 * @param issuer - an entry of `authorization_servers`.
 * @param fetchImpl - fetch.
 * @returns the metadata.
 * @throws OAuthClientError when none is found or one names another issuer.
 */
export async function serverMetadata(
  issuer: string,
  fetchImpl: typeof fetch = fetch,
): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  if (url.protocol !== "https:" && !insecureAllowed(url))
    throw new OAuthClientError(`the authorization server ${issuer} must be https`);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [new URL(`/.well-known/oauth-authorization-server${path}`, url.origin)];
  if (path) candidates.push(new URL(`/.well-known/openid-configuration${path}`, url.origin));
  candidates.push(new URL(`${path}/.well-known/openid-configuration`, url.origin));
  for (const c of candidates) {
    let res: Response;
    try {
      res = await fetchImpl(c, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_MS) });
    } catch {
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      continue;
    }
    try {
      return await oauth.processDiscoveryResponse(url, res);
    } catch (e) {
      throw new OAuthClientError(
        `the authorization server's metadata at ${c.href} is not acceptable: ${(e as Error).message}`,
      );
    }
  }
  throw new OAuthClientError(`no authorization-server metadata found for ${issuer} (RFC 8414 or OpenID discovery)`);
}
