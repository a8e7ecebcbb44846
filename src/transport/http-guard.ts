/** @module HTTP safety checks before any MCP handling: Host and Origin (DNS rebinding), bearer token, CORS headers. */
import { isLoopback, type ResolvedHttpOptions } from "./http-options.ts";

/** Headers a browser client may send, for CORS preflight answers. */
const ALLOW_HEADERS =
  "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id";

/** Response headers a browser client must be able to read (the session, the version, a 401's challenge). */
const EXPOSE_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

/** The checks of one server, prepared once from its options. */
export class HttpGuard {
  readonly #origins: Set<string>;
  readonly #anyOrigin: boolean;
  readonly #hosts: Set<string> | undefined;
  readonly #tokenDigest: Buffer | undefined;

  /** @param o - resolved HTTP options. */
  constructor(readonly o: ResolvedHttpOptions) {
    this.#origins = new Set(o.allowedOrigins.map((x) => x.toLowerCase().replace(/\/+$/, "")));
    this.#anyOrigin = this.#origins.has("*");
    // Bound to loopback: only loopback Host names (plus allowedHosts) — DNS-rebinding protection.
    // Bound elsewhere: the Host header is only checked when allowedHosts is given.
    this.#hosts =
      o.allowedHosts || isLoopback(o.host) ? new Set((o.allowedHosts ?? []).map((h) => h.toLowerCase())) : undefined;
    this.#tokenDigest = o.token === undefined ? undefined : digest(o.token);
  }

  /**
   * The `Host` and `Origin` checks (MCP basic/transports, security warning; DNS rebinding).
   * A missing Origin (non-browser client) passes; `Origin: null` does not.
   * @returns a reason text for a 403, or undefined when the request may go on.
   */
  forbidden(req: Request): string | undefined {
    if (this.#hosts !== undefined) {
      const host = req.headers.get("host");
      if (host === null) return "the Host header is missing";
      const name = hostName(host);
      if (!isLoopback(name) && !this.#hosts.has(name))
        return `Host ${JSON.stringify(host)} is not allowed (http.allowedHosts)`;
    }
    const origin = req.headers.get("origin");
    if (origin !== null && !this.originAllowed(origin))
      return `Origin ${JSON.stringify(origin)} is not allowed (http.allowedOrigins)`;
    return undefined;
  }

  /** True when a browser at `origin` may call the endpoint: loopback origins, or listed in allowedOrigins. */
  originAllowed(origin: string): boolean {
    if (this.#anyOrigin) return true;
    const o = origin.toLowerCase().replace(/\/+$/, "");
    if (this.#origins.has(o)) return true;
    try {
      const u = new URL(o);
      return (u.protocol === "http:" || u.protocol === "https:") && isLoopback(u.hostname);
    } catch {
      return false;
    }
  }

  /**
   * The bearer-token check, in constant time (SHA-256 digests compared with timingSafeEqual, so
   * neither content nor length leaks through timing).
   * @returns undefined when no token is configured or it matches; else the `WWW-Authenticate` value for a 401.
   */
  unauthorized(req: Request): string | undefined {
    if (this.#tokenDigest === undefined) return undefined;
    const auth = req.headers.get("authorization");
    const m = auth === null ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
    if (m && nodeCrypto().timingSafeEqual(digest(m[1]!), this.#tokenDigest)) return undefined;
    return m ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"';
  }

  /** True when `token` is the static `http.token` (compared in constant time, as {@link unauthorized} does). */
  isStaticToken(token: string): boolean {
    return this.#tokenDigest !== undefined && nodeCrypto().timingSafeEqual(digest(token), this.#tokenDigest);
  }

  /**
   * Adds the CORS response headers (Fetch standard, CORS protocol) for an allowed browser origin, on
   * any answer, errors included, so the page can read the status, body and exposed headers. An origin
   * that is not allowed gets none: its 403 stays opaque to the page, as the refusal intends.
   * `Vary: Origin` is set on every answer, since the headers depend on it.
   * @param req - the request (its `Origin` header).
   * @param headers - the response's headers, changed in place.
   */
  cors(req: Request, headers: Headers): void {
    if (!/(^|,)\s*origin\s*(,|$)/i.test(headers.get("vary") ?? "")) headers.append("vary", "Origin");
    const origin = req.headers.get("origin");
    if (origin === null || !this.originAllowed(origin)) return;
    headers.set("access-control-allow-origin", origin);
    headers.set("access-control-expose-headers", EXPOSE_HEADERS);
  }

  /** The answer to a CORS preflight (`OPTIONS`) from an allowed origin; the CORS headers are added by the caller, as on every answer. */
  preflight(req: Request): Response {
    const headers = new Headers({
      "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
      "access-control-allow-headers": req.headers.get("access-control-request-headers") ?? ALLOW_HEADERS,
      "access-control-max-age": "600",
    });
    return new Response(null, { status: 204, headers });
  }
}

/**
 * node:crypto, loaded on first use: a static import is hoisted to the top of a compiled bundle and its
 * evaluation (~10 M instructions) would land on every stdio server's cold start.
 */
function nodeCrypto(): typeof import("node:crypto") {
  return require("node:crypto") as typeof import("node:crypto");
}

function digest(s: string): Buffer {
  return nodeCrypto().createHash("sha256").update(s).digest();
}

/** The host name of a Host header value (`name:port`, `[v6]:port`). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const i = h.lastIndexOf(":");
  return i === -1 ? h : h.slice(0, i);
}
