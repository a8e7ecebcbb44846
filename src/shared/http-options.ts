/** @module The shape of the `http` option (`serve({ http })`, the config file's `http` key) and its `auth` (OAuth 2.1 resource server): a shared shape (src/shared/), imports nothing. */

/** Options of the HTTP transport (`serve({ http: {...} })`, the config file's `http` key). */
export interface HttpOptions {
  /**
   * TCP port; 0 picks a free one (the address is printed on stderr). Without it (and without `--http`), the server
   * serves stdio, the default, and these settings wait for `--http [host:]port`.
   */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1` (loopback only); `0.0.0.0` or `::` to serve other hosts. */
  readonly host?: string;
  /** The one MCP endpoint. Default `/mcp`. */
  readonly path?: string;
  /**
   * Bearer token every request to the endpoint must carry (`Authorization: Bearer <token>`).
   * The environment variable `MCPBIN_HTTP_TOKEN` wins over this. Default: none (no authentication).
   */
  readonly token?: string;
  /** OAuth 2.1 access tokens from trusted issuers (docs/auth.md); the static `token` still works beside it. */
  readonly auth?: AuthOptions;
  /**
   * Browser origins allowed besides loopback ones (`http://localhost:*` etc. are always allowed), as
   * `scheme://host[:port]`; `"*"` allows any origin. A request with any other `Origin` gets 403.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Host names accepted in the `Host` header when bound to loopback (DNS-rebinding protection),
   * besides localhost, 127.0.0.1 and ::1. Not checked when bound to another interface unless given.
   */
  readonly allowedHosts?: readonly string[];
  /** Largest request body in bytes; a larger one gets 413. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Time limit per HTTP request (body read and reply), ms; on expiry the call is cancelled and answered with an error. Default 130000; 0 = none. */
  readonly requestTimeoutMs?: number;
  /** A legacy session (2025-03-26 … 2025-11-25) unused this long expires (404 afterwards), ms. Default 30 minutes. */
  readonly sessionIdleMs?: number;
  /** Legacy sessions kept at most; the least recently used idle one is dropped for a new one. Default 1000. */
  readonly maxSessions?: number;
  /**
   * Legacy sessions one client may hold (a client is its OAuth subject, its own bearer token, or its address when
   * it sends none or the shared `token`); its own least recently used idle one is dropped for its next. Default
   * `maxSessions`. Whatever the quota, a full table gives up a session of the client holding the most, so one
   * client's flood never pushes out another's idle session.
   */
  readonly maxSessionsPerClient?: number;
  /** Time limit for receiving a request's body, ms; a body slower than this gets 408 and the connection is closed. Default 10000. */
  readonly bodyTimeoutMs?: number;
  /** An answer whose client takes none of its bytes for this long is dropped (connection closed, its call cancelled), ms. Default 30000; 0 = none. */
  readonly writeTimeoutMs?: number;
  /**
   * On SIGTERM (or `stop()`), keep serving for this long while `/healthz` answers 503 `draining`, so a load balancer or
   * Kubernetes takes the replica out before the listener closes, ms. The environment variable `MCPBIN_HTTP_DRAIN_MS`
   * wins over this (the container image and manifests set 5000). Default 0.
   */
  readonly drainMs?: number;
  /** Bytes that answers not yet taken by their clients may hold together, answers being made counted at three times their expected size: past it the longest-stalled are dropped first and new requests wait. Default 64 MiB. */
  readonly maxUnsentBytes?: number;
  /** One line per request on stderr (method, MCP method, status, duration). Default true. */
  readonly accessLog?: boolean;
  /**
   * Redis shared by every replica behind one address (`redis://host:port[/db]`): legacy sessions, and the changes
   * that reach every replica's streams, go through it. `MCPBIN_REDIS_URL` wins over this. Default: none (this process only).
   */
  readonly redis?: string;
  /** The SSE `retry` sent first on every legacy stream (GET and POST): how long a client waits before it resumes, ms. Default 1000. */
  readonly retryMs?: number;
  /** An SSE comment on idle legacy GET streams this often, so proxies keep them open, ms. Default 15000; 0 = none. */
  readonly keepAliveMs?: number;
  /** Events one legacy SSE stream keeps for a resumption with Last-Event-ID (older ones are dropped). Default 1000. */
  readonly eventsPerStream?: number;
  /** Events kept for resumptions over every legacy stream (the feed of GET streams, and POST streams together). Default 10000. */
  readonly eventsTotal?: number;
}

/** RFC 7662 token introspection, for opaque (non-JWT) access tokens. */
export interface IntrospectionOptions {
  /** The authorization server's introspection endpoint. */
  readonly url: string;
  /** This resource server's client id at the authorization server. */
  readonly clientId: string;
  /** Its secret (sent with HTTP Basic). Prefer an environment variable to a literal. */
  readonly clientSecret: string;
}

/**
 * `serve({ http: { auth } })`: accept access tokens from OAuth 2.1 authorization servers (MCP 2025-11-25
 * basic/authorization; RFC 9728, RFC 8707, RFC 7662). The static `http.token` may be set beside it.
 */
export interface AuthOptions {
  /** The trusted issuer (its metadata and JWKS are discovered from it). One of `issuer` / `issuers`. */
  readonly issuer?: string;
  /** Several trusted issuers. */
  readonly issuers?: readonly string[];
  /**
   * This server's resource identifier (RFC 8707), advertised in the protected-resource metadata, e.g.
   * `https://mcp.example.com/mcp`. Default (bound to loopback only, by `serve()`): the URL the endpoint is bound
   * at, never a request's `Host`; `mcpHandler()` needs it set.
   */
  readonly resource?: string;
  /** The `aud` a token must carry (one of them). Default: `resource`. Some IdPs use an API id here. */
  readonly audience?: string | readonly string[];
  /** Scopes every request needs. Default none. */
  readonly scopes?: readonly string[];
  /** Introspection for opaque tokens (RFC 7662). Default: only JWT access tokens are accepted. */
  readonly introspection?: IntrospectionOptions;
  /** Clock skew allowed on `exp`/`nbf`/`iat`, seconds. Default 30. */
  readonly clockSkewSeconds?: number;
  /**
   * What a call of a tool (resource, prompt) whose `scopes` the caller lacks gets: `"http"` (default) a
   * 403 with `error="insufficient_scope"` and the scopes needed (step-up), `"result"` an isError result
   * (or a JSON-RPC error for resources and prompts) with HTTP 200.
   */
  readonly scopeFailure?: "http" | "result";
  /** `resource_name` in the protected-resource metadata. Default: the server's name. */
  readonly resourceName?: string;
}
