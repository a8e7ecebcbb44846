/** @module One client's OAuth session with one MCP server: the token to send, sign-in from a 401, step-up from a 403, refresh, and what is kept (MCP 2025-11-25 basic/authorization). */
import * as oauth from "oauth4webapi";
import { logLine } from "../runtime/log-name.ts";
import {
  canonicalResource,
  insecureAllowed,
  OAuthClientError,
  resourceMetadata,
  serverMetadata,
} from "./client-discovery.ts";
import { clientAuthOf, clientFor, type KnownClient } from "./client-identity.ts";
import { clock } from "./clock.ts";
import type { OAuthClientOptions, StoredEntry, StoredTokens, TokenStore } from "../shared/oauth-client.ts";
import { listenPreferring, redirectPortOf } from "./loopback.ts";
import { fileTokenStore } from "./token-store.ts";
import type { BearerChallenge } from "./www-authenticate.ts";

/**
 * The OAuth state of a client for one MCP endpoint. `token()` gives the access token to send (refreshed
 * when it has expired); `signIn()` runs discovery, client identity and a grant after a 401 or a 403
 * `insufficient_scope`. Concurrent sign-ins share one.
 */
export class OAuthSession {
  readonly server: URL;
  readonly store: TokenStore;
  #entry: StoredEntry | undefined;
  #loaded = false;
  #inflight: Promise<void> | undefined;

  /** @param server - the MCP endpoint. @param o - the options. */
  constructor(
    server: string | URL,
    readonly o: OAuthClientOptions = {},
  ) {
    this.server = new URL(server);
    this.store = o.tokenStore ?? fileTokenStore();
  }

  get #fetch(): typeof fetch {
    return this.o.fetch ?? fetch;
  }

  /** The access token to send, if one is kept (refreshed first when it has expired and can be). */
  async token(): Promise<string | undefined> {
    if (!this.#loaded) {
      this.#loaded = true;
      const resource = canonicalResource(this.server);
      const all = (await this.store.list()).filter((e) => e.resource === resource && e.tokens);
      this.#entry = all.sort((a, b) => (b.savedAt ?? 0) - (a.savedAt ?? 0))[0];
    }
    const t = this.#entry?.tokens;
    if (!t) return undefined;
    if (t.expires_at !== undefined && t.expires_at - 30 < clock.now() / 1000 && t.refresh_token) {
      await (this.#inflight ??= this.#refresh().finally(() => (this.#inflight = undefined)));
    }
    return this.#entry?.tokens?.access_token;
  }

  /** The scopes of the kept token. */
  get scopes(): string[] {
    return this.#entry?.tokens?.scope?.split(" ").filter(Boolean) ?? [];
  }

  /**
   * Signs in (again): after a 401, with the challenge's scope (else the resource's `scopes_supported`); after a
   * 403 `insufficient_scope`, with the scopes held plus those the challenge names.
   * @param challenge - the Bearer challenge of the response.
   * @param stepUp - whether this is a step-up (403).
   * @throws OAuthClientError saying what failed.
   */
  signIn(challenge: BearerChallenge | undefined, stepUp = false): Promise<void> {
    return (this.#inflight ??= this.#signIn(challenge, stepUp).finally(() => (this.#inflight = undefined)));
  }

  async #signIn(challenge: BearerChallenge | undefined, stepUp: boolean): Promise<void> {
    const prm = await resourceMetadata(this.server, challenge?.resourceMetadata, this.#fetch);
    const issuer = prm?.authorization_servers?.[0] ?? this.server.origin;
    const as = await serverMetadata(issuer, this.#fetch).catch((e: unknown) => {
      // MCP 2025-03-26: a server without any metadata has its endpoints at default paths of its origin.
      if (prm !== undefined) throw e;
      return {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
      } as oauth.AuthorizationServer;
    });
    const resource = prm?.resource ?? canonicalResource(this.server);
    const sent = this.o.resource === false ? undefined : (this.o.resource ?? resource);
    const wanted = new Set<string>(stepUp ? this.scopes : []);
    const fromServer = challenge?.scope?.split(" ") ?? prm?.scopes_supported ?? [];
    for (const s of [...fromServer, ...(this.o.scopes ?? [])]) if (s) wanted.add(s);
    const cc = this.o.grant === "client_credentials";
    // A refresh token for later, where the server offers one (MCP 2026-07-28 basic/authorization).
    if (!cc && wanted.size > 0 && as.scopes_supported?.includes("offline_access")) wanted.add("offline_access");
    const scope = wanted.size > 0 ? [...wanted].join(" ") : undefined;
    const kept = await this.store.get(as.issuer, resource);
    let client = kept?.client as KnownClient | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        const tokens = cc
          ? await this.#clientCredentials(as, (client = await clientFor(as, this.o, client, "")), scope, sent)
          : await this.#authorizationCode(as, client, scope, sent, (c) => (client = c));
        await this.#save({ issuer: as.issuer, resource, client, tokens });
        return;
      } catch (e) {
        // A registration the server forgot (invalid_client): register once more instead of looping.
        if (
          attempt === 0 &&
          e instanceof oauth.ResponseBodyError &&
          e.error === "invalid_client" &&
          client?.kind === "registered"
        ) {
          client = undefined;
          continue;
        }
        throw e instanceof OAuthClientError ? e : new OAuthClientError(`sign-in at ${as.issuer} failed: ${reason(e)}`);
      }
    }
  }

  async #authorizationCode(
    as: oauth.AuthorizationServer,
    kept: KnownClient | undefined,
    scope: string | undefined,
    resource: string | undefined,
    keep: (c: KnownClient) => void,
  ): Promise<StoredTokens> {
    if (!as.authorization_endpoint)
      throw new OAuthClientError(`the authorization server ${as.issuer} has no authorization endpoint`);
    const port = this.o.redirectPort ?? redirectPortOf(kept?.redirect_uri);
    const listener = this.o.authorize ? undefined : listenPreferring(port);
    try {
      const redirectUri = listener?.redirectUri ?? kept?.redirect_uri ?? `http://127.0.0.1:${port || 8976}/callback`;
      const client = await clientFor(as, this.o, kept, redirectUri);
      keep(client);
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint);
      const q = url.searchParams;
      q.set("response_type", "code");
      q.set("client_id", client.client_id);
      q.set("redirect_uri", redirectUri);
      q.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
      q.set("code_challenge_method", "S256");
      q.set("state", state);
      if (scope) q.set("scope", scope);
      // OpenID Connect Core §11: offline_access is granted on a consent prompt (OpenID providers drop it otherwise).
      if (
        scope?.split(" ").includes("offline_access") &&
        ((as.prompt_values_supported as string[] | undefined)?.includes("consent") ||
          as.userinfo_endpoint !== undefined)
      )
        q.set("prompt", "consent");
      if (resource) q.set("resource", resource);
      let back: URL;
      if (this.o.authorize) back = new URL(await this.o.authorize(url, redirectUri));
      else {
        logLine(`sign in to ${this.server.origin} at:\n  ${url.href}`);
        openBrowser(url.href);
        back = await listener!.redirected;
      }
      const c: oauth.Client = { client_id: client.client_id };
      // Checks state and, per RFC 9207, the iss parameter against the issuer.
      const params = oauth.validateAuthResponse(as, c, back.searchParams, state);
      const res = await oauth.authorizationCodeGrantRequest(
        as,
        c,
        clientAuthOf(client, this.o.clientPrivateKey),
        params,
        redirectUri,
        verifier,
        {
          ...(resource ? { additionalParameters: { resource } } : {}),
          [oauth.allowInsecureRequests]: insecureAllowed(new URL(as.token_endpoint!)),
          signal: AbortSignal.timeout(15_000),
        },
      );
      return tokensOf(await oauth.processAuthorizationCodeResponse(as, c, res));
    } finally {
      listener?.stop();
    }
  }

  async #clientCredentials(
    as: oauth.AuthorizationServer,
    client: KnownClient,
    scope: string | undefined,
    resource: string | undefined,
  ): Promise<StoredTokens> {
    const c: oauth.Client = { client_id: client.client_id };
    const params: Record<string, string> = {};
    if (scope) params.scope = scope;
    if (resource) params.resource = resource;
    const res = await oauth.clientCredentialsGrantRequest(
      as,
      c,
      clientAuthOf(client, this.o.clientPrivateKey),
      params,
      {
        [oauth.allowInsecureRequests]: insecureAllowed(new URL(as.token_endpoint!)),
        signal: AbortSignal.timeout(15_000),
      },
    );
    return tokensOf(await oauth.processClientCredentialsResponse(as, c, res));
  }

  /** Refreshes the kept token; the new refresh token (rotation) replaces the old in the same atomic write. On failure the tokens are dropped, so the next 401 signs in. */
  async #refresh(): Promise<void> {
    const e = this.#entry!;
    try {
      const as = await serverMetadata(e.issuer, this.#fetch);
      const client = e.client as KnownClient;
      const c: oauth.Client = { client_id: client.client_id };
      const resource = this.o.resource === false ? undefined : (this.o.resource ?? e.resource);
      const res = await oauth.refreshTokenGrantRequest(
        as,
        c,
        clientAuthOf(client, this.o.clientPrivateKey),
        e.tokens!.refresh_token!,
        {
          ...(resource ? { additionalParameters: { resource } } : {}),
          [oauth.allowInsecureRequests]: insecureAllowed(new URL(as.token_endpoint!)),
          signal: AbortSignal.timeout(15_000),
        },
      );
      const fresh = tokensOf(await oauth.processRefreshTokenResponse(as, c, res));
      await this.#save({
        ...e,
        tokens: {
          ...fresh,
          refresh_token: fresh.refresh_token ?? e.tokens!.refresh_token,
          scope: fresh.scope ?? e.tokens!.scope,
        },
      });
    } catch (err) {
      // A client the server no longer knows is dropped too, so the next sign-in registers anew.
      const forgotten =
        err instanceof oauth.ResponseBodyError && err.error === "invalid_client" && e.client?.kind === "registered";
      await this.#save({
        issuer: e.issuer,
        resource: e.resource,
        ...(e.client && !forgotten ? { client: e.client } : {}),
      });
    }
  }

  async #save(e: StoredEntry): Promise<void> {
    const { client, ...rest } = e;
    const entry: StoredEntry = { ...rest, ...(client ? { client } : {}), savedAt: Date.now() };
    await this.store.set(entry);
    this.#entry = entry;
  }
}

/** An OAuth error's code and description, else the message. */
function reason(e: unknown): string {
  if (e instanceof oauth.AuthorizationResponseError || e instanceof oauth.ResponseBodyError) {
    return `${e.error}${e.error_description ? ` (${e.error_description})` : ""}`;
  }
  return (e as Error)?.message ?? String(e);
}

function tokensOf(r: oauth.TokenEndpointResponse): StoredTokens {
  return {
    access_token: r.access_token,
    token_type: r.token_type,
    ...(r.refresh_token ? { refresh_token: r.refresh_token } : {}),
    ...(typeof r.expires_in === "number" ? { expires_at: Math.floor(clock.now() / 1000) + r.expires_in } : {}),
    ...(typeof r.scope === "string" ? { scope: r.scope } : {}),
  };
}

/** Opens the URL in the person's browser when there is a terminal and a desktop; silent otherwise. */
function openBrowser(url: string): void {
  if (!process.stderr.isTTY || process.env.CI || process.env.MCPBIN_NO_BROWSER) return;
  const cmd =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  try {
    Bun.spawn(cmd, { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
  } catch {}
}
