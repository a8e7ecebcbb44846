/** @module The client's identity at an authorization server: a given client id, a Client ID Metadata Document URL, or dynamic registration (RFC 7591). */
import { importPKCS8 } from "jose";
import * as oauth from "oauth4webapi";
import { insecureAllowed, OAuthClientError } from "./client-discovery.ts";
import type { OAuthClientOptions, StoredClient } from "../shared/oauth-client.ts";

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
export async function clientFor(
  as: oauth.AuthorizationServer,
  o: OAuthClientOptions,
  stored: KnownClient | undefined,
  redirectUri: string,
): Promise<KnownClient> {
  if (o.clientId) {
    const method = o.clientPrivateKey ? "private_key_jwt" : authMethod(as, o.clientSecret);
    return {
      client_id: o.clientId,
      ...(o.clientSecret ? { client_secret: o.clientSecret } : {}),
      kind: "given",
      token_endpoint_auth_method: method,
    };
  }
  if (stored && stored.kind !== "given" && (o.grant === "client_credentials" || stored.redirect_uri === redirectUri))
    return stored;
  if (o.clientMetadataUrl && as.client_id_metadata_document_supported === true)
    return {
      client_id: o.clientMetadataUrl,
      kind: "metadata-document",
      token_endpoint_auth_method: "none",
      redirect_uri: redirectUri,
    };
  if (!as.registration_endpoint) {
    throw new OAuthClientError(
      `the authorization server ${as.issuer} offers no dynamic registration: give a pre-registered client id (auth.clientId, or --client-id)`,
    );
  }
  const metadata = {
    client_name: o.clientName ?? "mcpbin",
    // A native application with a loopback redirect (RFC 8252; MCP 2026-07-28 basic/authorization client registration).
    application_type: "native",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  try {
    const res = await oauth.dynamicClientRegistrationRequest(as, metadata, {
      [oauth.allowInsecureRequests]: insecureAllowed(new URL(as.registration_endpoint)),
      signal: AbortSignal.timeout(15_000),
    });
    const c = await registrationOf(res);
    const secret = typeof c.client_secret === "string" ? c.client_secret : undefined;
    const method =
      typeof c.token_endpoint_auth_method === "string" ? c.token_endpoint_auth_method : authMethod(as, secret);
    return {
      client_id: c.client_id,
      ...(secret ? { client_secret: secret } : {}),
      token_endpoint_auth_method: method,
      kind: "registered",
      redirect_uri: redirectUri,
    };
  } catch (e) {
    throw new OAuthClientError(`dynamic registration at ${as.registration_endpoint} failed: ${(e as Error).message}`);
  }
}

/**
 * The registration response (RFC 7591 §3.2.1), read leniently where servers commonly differ: oauth4webapi's own
 * check refuses a `client_secret` without `client_secret_expires_at`, which several servers leave out.
 */
async function registrationOf(
  res: Response,
): Promise<{ client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown }> {
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (res.status !== 201 && res.status !== 200) {
    const why =
      typeof body?.error === "string"
        ? `${body.error}${typeof body.error_description === "string" ? ` (${body.error_description})` : ""}`
        : `HTTP ${res.status}`;
    throw new Error(why);
  }
  if (typeof body?.client_id !== "string" || body.client_id === "") throw new Error("the response has no client_id");
  return body as { client_id: string };
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
 * @param key - the private key of `private_key_jwt` (never stored with the client).
 * @returns the ClientAuth.
 */
export function clientAuthOf(c: KnownClient, key?: OAuthClientOptions["clientPrivateKey"]): oauth.ClientAuth {
  if (c.token_endpoint_auth_method === "private_key_jwt" && key) {
    // The assertion is signed by oauth4webapi with the key jose imports (RFC 7523).
    return async (as, client, body, headers) =>
      oauth.PrivateKeyJwt(await importPKCS8(key.pem, key.alg))(as, client, body, headers);
  }
  if (c.client_secret && c.token_endpoint_auth_method === "client_secret_post")
    return oauth.ClientSecretPost(c.client_secret);
  if (c.client_secret && c.token_endpoint_auth_method !== "none") return secretBasic(c.client_id, c.client_secret);
  return oauth.None();
}

/**
 * HTTP Basic client authentication (RFC 6749 §2.3.1): id and secret form-urlencoded, then joined. Unreserved
 * characters stay as they are; oauth4webapi's own encodes `-`, `.`, `_` and `~` too, which some servers do not
 * decode (a `pre-registered-client` arrived as `pre%2Dregistered%2Dclient`).
 */
function secretBasic(id: string, secret: string): oauth.ClientAuth {
  const enc = (x: string) => encodeURIComponent(x).replace(/%20/g, "+");
  return (_as, _client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${enc(id)}:${enc(secret)}`)}`);
  };
}
