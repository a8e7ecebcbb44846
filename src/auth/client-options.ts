/** @module The client's OAuth options (`connect({ url, auth })`, `upstreams: { x: { url, oauth } }`, `mcpbin proxy --oauth`). */
import type { TokenStore } from "./token-store.ts";

/**
 * How a client signs in to a server that asks for OAuth 2.1 (MCP 2025-11-25 basic/authorization). Every
 * key is optional: `auth: "oauth"` discovers everything from the server's 401.
 */
export interface OAuthClientOptions {
  /** A client id registered with the authorization server beforehand (used when given). */
  readonly clientId?: string;
  /** Its secret, for a confidential client (client credentials, or a pre-registered web client). */
  readonly clientSecret?: string;
  /**
   * A private key (PKCS#8 PEM) and its JWS algorithm (e.g. "ES256", "RS256") for `private_key_jwt` client
   * authentication (RFC 7523) instead of a secret, with `clientId`.
   */
  readonly clientPrivateKey?: { readonly pem: string; readonly alg: string };
  /** An https URL of this client's metadata document (Client ID Metadata Documents), used where the server supports them. */
  readonly clientMetadataUrl?: string;
  /** Scopes asked for besides those the server's challenge or metadata name. */
  readonly scopes?: readonly string[];
  /**
   * The RFC 8707 `resource` sent with authorization and token requests: default the server's resource
   * identifier; a string to send another; `false` to send none (for authorization servers that refuse it).
   */
  readonly resource?: string | false;
  /** Where registrations and tokens are kept (default: files in the user's config folder, see docs/auth.md). */
  readonly tokenStore?: TokenStore;
  /** `"authorization_code"` (default: a person signs in in a browser) or `"client_credentials"` (headless, needs clientId and clientSecret). */
  readonly grant?: "authorization_code" | "client_credentials";
  /**
   * Plays the browser: receives the authorization URL and returns the URL the authorization server redirected
   * to. Default: a loopback listener on 127.0.0.1, the URL printed on stderr (and opened in a browser when
   * there is a terminal).
   */
  readonly authorize?: (url: URL, redirectUri: string) => Promise<URL | string>;
  /** The loopback listener's port (default: the one registered before, else a free one). */
  readonly redirectPort?: number;
  /** `client_name` in a dynamic registration. Default "mcpbin". */
  readonly clientName?: string;
  /** Step-up sign-ins after a 403 `insufficient_scope`, at most, per request. Default 2. */
  readonly maxStepUps?: number;
  /** The fetch to use for the authorization server and metadata. */
  readonly fetch?: typeof fetch;
}

/** `auth` of `connect({ url, auth })`: `"oauth"` for the defaults, or options. */
export type ClientAuth = "oauth" | OAuthClientOptions;

/**
 * The options of an `auth` value.
 * @param auth - `"oauth"` or options.
 * @returns the options.
 * @throws TypeError on anything else.
 */
export function oauthOptionsOf(auth: unknown): OAuthClientOptions {
  if (auth === "oauth" || auth === true) return {};
  if (typeof auth === "object" && auth !== null && !Array.isArray(auth)) {
    const o = auth as OAuthClientOptions;
    if (o.grant !== undefined && o.grant !== "authorization_code" && o.grant !== "client_credentials")
      throw new TypeError(`auth.grant must be "authorization_code" or "client_credentials"`);
    if (o.grant === "client_credentials" && (!o.clientId || (!o.clientSecret && !o.clientPrivateKey))) {
      throw new TypeError(
        `auth.grant "client_credentials" needs auth.clientId and auth.clientSecret (or auth.clientPrivateKey)`,
      );
    }
    if (o.clientMetadataUrl !== undefined && !/^https:\/\//.test(o.clientMetadataUrl))
      throw new TypeError(`auth.clientMetadataUrl must be an https URL`);
    return o;
  }
  throw new TypeError(
    `auth must be "oauth" or an object { clientId?, clientMetadataUrl?, scopes?, tokenStore? }; got ${JSON.stringify(auth)}`,
  );
}
