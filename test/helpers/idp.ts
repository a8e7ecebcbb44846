// A real OpenID provider (oidc-provider, certified) on a free loopback port, in the test process: client
// credentials (JWT or opaque access tokens, RFC 8707 resource indicators), authorization code with PKCE and
// dynamic registration (RFC 7591), introspection (RFC 7662); its own RSA key per instance.
import { createServer, type Server } from "node:http";
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair } from "jose";

/** Options of {@link startIdp}. */
export interface IdpOptions {
  /** Scopes it knows besides openid and offline_access. */
  readonly scopes: readonly string[];
  /** Access-token lifetime, seconds (default 300). Client `short` always gets 2 s. */
  readonly ttl?: number;
}

/** A running provider. */
export interface Idp {
  readonly issuer: string;
  readonly provider: Provider;
  /** A token from the client credentials grant (client `svc`, or `opaque` for an opaque token, `short` for a 2 s one). */
  token(o: { scope: string; resource: string; client?: "svc" | "opaque" | "short" }): Promise<string>;
  /** Acts as the person at the browser: follows the authorization URL through login and consent; returns the redirect with the code. */
  consent(authorizationUrl: string | URL, account?: string): Promise<URL>;
  stop(): Promise<void>;
}

/** Client secret of the pre-registered confidential clients. */
export const SECRET = "test-secret-0123456789-0123456789";

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const p = s.port!;
  s.stop(true);
  return p;
}

/**
 * Starts a provider.
 * @returns it, stopped by `stop()`.
 */
export async function startIdp(o: IdpOptions): Promise<Idp> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `k-${port}`, alg: "RS256", use: "sig" };
  const confidential = (client_id: string) => ({
    client_id,
    client_secret: SECRET,
    grant_types: ["client_credentials"],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: "client_secret_basic",
  });
  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] } as never,
    clients: [confidential("svc"), confidential("opaque"), confidential("short"), confidential("introspector")],
    scopes: ["openid", "offline_access", ...o.scopes],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as never,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string, client: { clientId: string }) => ({
          scope: o.scopes.join(" "),
          audience: resource,
          accessTokenFormat: client.clientId === "opaque" ? "opaque" : "jwt",
          accessTokenTTL: client.clientId === "short" ? 2 : (o.ttl ?? 300),
        }),
      },
    },
    ttl: {
      ClientCredentials: (_ctx: unknown, _token: unknown, client: { clientId: string }) =>
        client.clientId === "short" ? 2 : (o.ttl ?? 300),
      AccessToken: () => o.ttl ?? 300,
    } as never,
  } as never);
  // A client registers with the scope it first asked for (the SDKs do); oidc-provider would then refuse its
  // later step-up. Like IdPs that leave a registered client's scopes to the consent, this one drops it.
  provider.use(async (ctx, next) => {
    if (ctx.method === "POST" && ctx.path === "/reg") {
      const chunks: Buffer[] = [];
      for await (const c of ctx.req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      delete body.scope;
      (ctx.request as { body?: unknown }).body = body;
    }
    await next();
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));

  return {
    issuer,
    provider,
    async token({ scope, resource, client = "svc" }) {
      const r = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${client}:${SECRET}`)}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grant_type: "client_credentials", scope, resource }),
      });
      const j = (await r.json()) as { access_token?: string };
      if (!r.ok || !j.access_token) throw new Error(`token request failed: ${r.status} ${JSON.stringify(j)}`);
      return j.access_token;
    },
    async consent(authorizationUrl, account = "alice") {
      const jar = new Map<string, string>();
      const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const keep = (res: Response) => {
        for (const c of res.headers.getSetCookie()) {
          const [kv] = c.split(";");
          const i = kv!.indexOf("=");
          jar.set(kv!.slice(0, i), kv!.slice(i + 1));
        }
      };
      let url = new URL(String(authorizationUrl));
      let method = "GET";
      let body: URLSearchParams | undefined;
      for (let hop = 0; hop < 20; hop++) {
        const res = await fetch(url, {
          method,
          redirect: "manual",
          headers: { cookie: cookie(), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
          body,
        });
        keep(res);
        const loc = res.headers.get("location");
        if (res.status >= 300 && res.status < 400 && loc) {
          const next = new URL(loc, url);
          if (next.origin !== issuer) return next;
          url = next;
          method = "GET";
          body = undefined;
          continue;
        }
        const html = await res.text();
        if (res.status !== 200)
          throw new Error(`authorization failed at ${url.pathname}: ${res.status} ${html.slice(0, 300)}`);
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (!action) throw new Error(`no form at ${url.pathname}: ${html.slice(0, 300)}`);
        const prompt =
          /name="prompt" value="(\w+)"/.exec(html)?.[1] ?? (html.includes('name="login"') ? "login" : "consent");
        body = new URLSearchParams(prompt === "login" ? { prompt, login: account, password: "any" } : { prompt });
        url = new URL(action.replace(/&amp;/g, "&"), url);
        method = "POST";
      }
      throw new Error("too many redirects during authorization");
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
