/** @module The client's OAuth options (`connect({ url, auth })`, `upstreams: { x: { url, oauth } }`, `mcpbin proxy --oauth`) and the shapes of its token store: a shared shape (src/shared/), imports nothing. */

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

/** A client registration at an authorization server. */
export interface StoredClient {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly token_endpoint_auth_method?: string;
  /** How it came: dynamic registration (may be re-registered), a metadata document URL, or given by the user. */
  readonly kind: "registered" | "metadata-document" | "given";
}

/** Tokens for one resource. */
export interface StoredTokens {
  readonly access_token: string;
  readonly token_type?: string;
  readonly refresh_token?: string;
  /** Seconds since the epoch. */
  readonly expires_at?: number;
  readonly scope?: string;
}

/** One entry: an issuer and a resource, its client and tokens. */
export interface StoredEntry {
  readonly issuer: string;
  readonly resource: string;
  readonly client?: StoredClient;
  readonly tokens?: StoredTokens;
  /** When it was last written, ms since the epoch. */
  readonly savedAt?: number;
}

/** A place for entries (the default is {@link fileTokenStore}; pass your own, e.g. a keychain). */
export interface TokenStore {
  get(issuer: string, resource: string): Promise<StoredEntry | undefined>;
  set(entry: StoredEntry): Promise<void>;
  delete(issuer: string, resource: string): Promise<void>;
  list(): Promise<StoredEntry[]>;
}
