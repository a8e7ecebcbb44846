/** @module The resource server's hook in the HTTP handler: protected-resource metadata (RFC 9728), the bearer check with its 401/403 challenges (RFC 6750), and step-up for scoped tools. */
import { AuthOptionsError, resolveAuth, type ResolvedAuth } from "./options.ts";
import type { AuthOptions } from "../shared/http-options.ts";
import { missingScopes, type AuthInfo } from "../shared/auth.ts";
import { TokenError } from "./token-error.ts";
import type { TokenVerifier } from "./verify.ts";

/** The well-known prefix of protected-resource metadata (RFC 9728 §3). */
export const PRM_PREFIX = "/.well-known/oauth-protected-resource";

type Scoped = { readonly definition: { readonly scopes?: readonly string[] } };

/** What the hook needs of the server: its name and the scopes its tools, resources and prompts declare. */
export interface ScopedServer {
  readonly name: string;
  readonly tools: ReadonlyMap<string, Scoped>;
  readonly content: {
    readonly resources: ReadonlyMap<string, Scoped>;
    readonly templates: readonly Scoped[];
    readonly prompts: ReadonlyMap<string, Scoped>;
    scopesOf(uri: string): readonly string[] | undefined;
  };
}

/**
 * The OAuth 2.1 resource server of one HTTP endpoint (MCP 2025-11-25 basic/authorization): answers the
 * metadata URLs, checks each request's bearer token (the static `http.token` too, when set beside), and
 * refuses a call of a tool whose scopes the caller lacks with a 403 step-up challenge.
 */
export class ResourceServer {
  readonly auth: ResolvedAuth;
  /** The verifier, loaded on the first bearer token that is not the static one: jose and oauth4webapi are imported then, not at start. */
  #verifier: Promise<TokenVerifier> | undefined;

  /**
   * @param options - `http.auth` as given.
   * @param endpoint - the endpoint's path (`http.path`) and whether the server is bound to loopback only.
   * @param server - the server (its name; its tools' scopes, read per request: tools may change).
   * @param staticToken - checks a token against the static `http.token` in constant time (true: it is that token).
   * @throws AuthOptionsError on a bad `http.auth`.
   */
  constructor(
    options: AuthOptions,
    readonly endpoint: { readonly path: string; readonly loopbackOnly: boolean },
    readonly server: ScopedServer,
    readonly staticToken: (token: string) => boolean,
  ) {
    this.auth = resolveAuth(options, endpoint.loopbackOnly);
  }

  /** The endpoint's URL as bound (`http://<host>:<port><path>`), once listening: the resource when none is configured. */
  #bound: string | undefined;

  /**
   * Tells the resource server the URL it is bound at (a free port is known only once listening). Without
   * `http.auth.resource` (loopback only) that URL is the resource identifier: never a request's `Host`, which
   * anyone on the machine can forge to pass a token minted for another local server.
   * @param url - the endpoint's URL as bound.
   */
  bind(url: string): void {
    this.#bound = url;
  }

  /**
   * This endpoint's resource identifier (RFC 8707, RFC 9728 §2): `http.auth.resource`, else the URL it is bound at.
   * @throws AuthOptionsError when neither is known (an endpoint not bound by mcpbin needs `http.auth.resource`).
   */
  get resource(): string {
    const r = this.auth.resource ?? this.#bound;
    if (r === undefined)
      throw new AuthOptionsError(`http.auth.resource is required: set it to the public URL of the endpoint`);
    return r;
  }

  /** The URL of the metadata document, path-aware (RFC 9728 §3.1: the well-known prefix before the resource's path). */
  metadataUrl(): string {
    const r = new URL(this.resource);
    return `${r.origin}${PRM_PREFIX}${r.pathname === "/" ? "" : r.pathname}`;
  }

  /**
   * Answers a request for the protected-resource metadata (the path-aware URL, and the root one), with
   * CORS open to any origin (it is public); undefined for any other path.
   * @param req - the request.
   * @param path - its path.
   */
  metadata(req: Request, path: string): Response | undefined {
    if (path !== PRM_PREFIX && !path.startsWith(PRM_PREFIX + "/")) return undefined;
    const resourcePath = new URL(this.resource).pathname;
    const known = [PRM_PREFIX, PRM_PREFIX + resourcePath, PRM_PREFIX + this.endpoint.path];
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, OPTIONS",
      "access-control-allow-headers": "mcp-protocol-version",
    };
    if (!known.includes(path)) return new Response("Not Found\n", { status: 404, headers: cors });
    if (req.method === "OPTIONS")
      return new Response(null, { status: 204, headers: { ...cors, "access-control-max-age": "600" } });
    if (req.method !== "GET" && req.method !== "HEAD")
      return new Response("Method Not Allowed\n", { status: 405, headers: { ...cors, allow: "GET, OPTIONS" } });
    const doc = {
      resource: this.resource,
      authorization_servers: this.auth.issuers,
      scopes_supported: this.scopesSupported(),
      bearer_methods_supported: ["header"],
      resource_name: this.auth.resourceName ?? this.server.name,
    };
    return Response.json(doc, { headers: { ...cors, "cache-control": "max-age=300" } });
  }

  /** The scopes advertised: those every request needs, then those of tools, in order, once each. */
  scopesSupported(): string[] {
    const all = new Set(this.auth.scopes);
    const c = this.server.content;
    for (const x of [...this.server.tools.values(), ...c.resources.values(), ...c.templates, ...c.prompts.values()])
      for (const s of x.definition.scopes ?? []) all.add(s);
    return [...all];
  }

  /**
   * Checks a request's bearer token.
   * @param req - the request.
   * @returns the caller, or the 401/403 answer to send.
   */
  async authenticate(req: Request): Promise<AuthInfo | Response> {
    const token = bearerOf(req);
    if (token === undefined) return this.#challenge(req, 401, undefined, "a bearer token is required");
    if (this.staticToken(token)) return { token };
    let info: AuthInfo;
    try {
      this.#verifier ??= import("./verify.ts").then((m) => new m.TokenVerifier(this.auth));
      info = await (await this.#verifier).verify(token, this.resource);
    } catch (e) {
      if (e instanceof TokenError) return this.#challenge(req, 401, "invalid_token", e.message);
      throw e;
    }
    const missing = missingScopes(info, this.auth.scopes);
    if (missing.length > 0)
      return this.#challenge(
        req,
        403,
        "insufficient_scope",
        `the token lacks the scopes ${missing.join(" ")}`,
        union(info.scopes!, this.auth.scopes),
      );
    return info;
  }

  /**
   * The 403 step-up answer for a call of a tool (a read of a resource, a get of a prompt) whose scopes the caller lacks (`http.auth.scopeFailure`
   * "http"), MCP 2025-11-25 basic/authorization "Scope Challenge Handling": the scopes asked for are the
   * granted ones and the needed ones, so a new token loses nothing.
   * @param req - the request.
   * @param method - the JSON-RPC method.
   * @param params - its params.
   * @param caller - the verified caller.
   * @returns the 403 response, or undefined when the call may go on.
   */
  stepUp(req: Request, method: string, params: unknown, caller: AuthInfo | undefined): Response | undefined {
    if (this.auth.scopeFailure !== "http" || caller?.scopes === undefined) return undefined;
    const p = params as { name?: unknown; uri?: unknown } | undefined;
    let what: string;
    let needed: readonly string[] | undefined;
    if (method === "tools/call" && typeof p?.name === "string")
      [what, needed] = [`tool ${p.name}`, this.server.tools.get(p.name)?.definition.scopes];
    else if (method === "prompts/get" && typeof p?.name === "string")
      [what, needed] = [`prompt ${p.name}`, this.server.content.prompts.get(p.name)?.definition.scopes];
    else if (method === "resources/read" && typeof p?.uri === "string")
      [what, needed] = [`resource ${p.uri}`, this.server.content.scopesOf(p.uri)];
    else return undefined;
    const missing = missingScopes(caller, needed);
    if (missing.length === 0) return undefined;
    return this.#challenge(
      req,
      403,
      "insufficient_scope",
      `${what} needs the scopes ${missing.join(" ")}`,
      union(union(caller.scopes, this.auth.scopes), needed!),
    );
  }

  #challenge(
    req: Request,
    status: 401 | 403,
    error: string | undefined,
    description: string,
    scope: readonly string[] = this.auth.scopes,
  ): Response {
    const params = [`resource_metadata="${this.metadataUrl()}"`];
    if (error)
      params.unshift(`error="${error}"`, `error_description="${description.replace(/[^\x20-\x7e]|["\\]/g, "?")}"`);
    if (scope.length > 0) params.push(`scope="${scope.join(" ")}"`);
    const text = status === 401 ? `Unauthorized: ${description}` : `Forbidden: ${description}`;
    return new Response(text + "\n", {
      status,
      headers: { "content-type": "text/plain; charset=utf-8", "www-authenticate": `Bearer ${params.join(", ")}` },
    });
  }
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** The bearer token of a request's Authorization header (RFC 6750 §2.1), if it has one. */
export function bearerOf(req: Request): string | undefined {
  const m = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i.exec(req.headers.get("authorization") ?? "");
  return m ? m[1] : undefined;
}
