/** @module The client's identity at an authorization server: a given client id, a Client ID Metadata Document URL, or dynamic registration (RFC 7591). */
import * as oauth from "oauth4webapi";
import { insecureAllowed, OAuthClientError } from "./client-discovery.ts";
import type { OAuthClientOptions } from "./client-options.ts";
import type { StoredClient } from "./token-store.ts";

/** A stored client plus the redirect URI it was registered with. */
export type KnownClient = StoredClient & { readonly redirect_uri?: string };

/**
 * Chooses the client identity, in the order MCP 2025-11-25 basic/authorization gives: a pre-registered client
 * id (given), a Client ID Metadata Document where the server advertises support, else dynamic registration.
 * @param as - the authorization server's metadata.
 * @param o - the options.
 * @param stored - a registration kept from before (reused when it is a registration of this server).
 * @param redirectUri - the loopback redirect URI to register.
 * @returns the client.
 * @throws OAuthClientError when there is no way to get one.
 */
export async function clientFor(as: oauth.AuthorizationServer, o: OAuthClientOptions, stored: KnownClient | undefined, redirectUri: string): Promise<KnownClient> {
  if (o.clientId) return { client_id: o.clientId, ...(o.clientSecret ? { client_secret: o.clientSecret } : {}), kind: "given", token_endpoint_auth_method: authMethod(as, o.clientSecret) };
  if (stored && stored.kind !== "given" && (o.grant === "client_credentials" || stored.redirect_uri === redirectUri)) return stored;
  if (o.clientMetadataUrl && as.client_id_metadata_document_supported === true) return { client_id: o.clientMetadataUrl, kind: "metadata-document", token_endpoint_auth_method: "none", redirect_uri: redirectUri };
  if (!as.registration_endpoint) {
    throw new OAuthClientError(`the authorization server ${as.issuer} offers no dynamic registration: give a pre-registered client id (auth.clientId, or --client-id)`);
  }
  const metadata = {
    client_name: o.clientName ?? "mcpbin",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  try {
    const res = await oauth.dynamicClientRegistrationRequest(as, metadata, { [oauth.allowInsecureRequests]: insecureAllowed(new URL(as.registration_endpoint)), signal: AbortSignal.timeout(15_000) });
    const c = await oauth.processDynamicClientRegistrationResponse(res);
    const secret = typeof c.client_secret === "string" ? c.client_secret : undefined;
    const method = typeof c.token_endpoint_auth_method === "string" ? c.token_endpoint_auth_method : authMethod(as, secret);
    return { client_id: c.client_id, ...(secret ? { client_secret: secret } : {}), token_endpoint_auth_method: method, kind: "registered", redirect_uri: redirectUri };
  } catch (e) {
    throw new OAuthClientError(`dynamic registration at ${as.registration_endpoint} failed: ${(e as Error).message}`);
  }
}

/** The token endpoint authentication for a secret: basic where the server supports it, else post; none without a secret. */
function authMethod(as: oauth.AuthorizationServer, secret: string | undefined): string {
  if (!secret) return "none";
  const supported = as.token_endpoint_auth_methods_supported;
  return !supported || supported.includes("client_secret_basic") ? "client_secret_basic" : "client_secret_post";
}

/**
 * The oauth4webapi client authentication of a client.
 * @param c - the client.
 * @returns the ClientAuth.
 */
export function clientAuthOf(c: KnownClient): oauth.ClientAuth {
  if (c.client_secret && c.token_endpoint_auth_method === "client_secret_post") return oauth.ClientSecretPost(c.client_secret);
  if (c.client_secret && c.token_endpoint_auth_method !== "none") return oauth.ClientSecretBasic(c.client_secret);
  return oauth.None();
}
