/** @module Options of the Streamable HTTP transport: `--http [host:]port`, `serve({ http })`, defaults and checks. */
import { AuthOptionsError, resolveAuth, type AuthOptions } from "../auth/options.ts";
import { checkOption, describeValue, HTTP_KEYS } from "../shared/option-keys.ts";

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
  /** Bytes that answers not yet taken by their clients may hold together; past it the longest-stalled are dropped first. Default 64 MiB. */
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

/** HTTP options with every default filled in. */
export interface ResolvedHttpOptions {
  readonly port: number;
  readonly host: string;
  readonly path: string;
  readonly token: string | undefined;
  readonly auth: AuthOptions | undefined;
  readonly allowedOrigins: readonly string[];
  readonly allowedHosts: readonly string[] | undefined;
  readonly maxBodyBytes: number;
  readonly requestTimeoutMs: number;
  readonly sessionIdleMs: number;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly bodyTimeoutMs: number;
  readonly writeTimeoutMs: number;
  readonly maxUnsentBytes: number;
  readonly accessLog: boolean;
  readonly redis: string | undefined;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly eventsPerStream: number;
  readonly eventsTotal: number;
}

/** The HTTP defaults, documented in docs/http.md. */
export const HTTP_DEFAULTS = {
  host: "127.0.0.1",
  path: "/mcp",
  maxBodyBytes: 4 * 1024 * 1024,
  requestTimeoutMs: 130_000,
  sessionIdleMs: 30 * 60_000,
  maxSessions: 1000,
  retryMs: 1000,
  keepAliveMs: 15_000,
  eventsPerStream: 1000,
  eventsTotal: 10_000,
  bodyTimeoutMs: 10_000,
  writeTimeoutMs: 30_000,
  maxUnsentBytes: 64 * 1024 * 1024,
} as const;

/** A bad `--http` value or `http` option: says what to change. */
export class HttpOptionsError extends Error {
  readonly code = "HTTP_OPTIONS";
  constructor(message: string) {
    super(message);
    this.name = "HttpOptionsError";
  }
}

/**
 * Parses a `--http` value: `port`, `host:port`, `[v6]:port`.
 * @param value - the flag's value.
 * @returns host (when given) and port.
 * @throws HttpOptionsError on anything else.
 */
export function parseHttpFlag(value: string): { host?: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:\s]+):)?(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port <= 65535))
    throw new HttpOptionsError(`--http: expected [host:]port (e.g. 8080 or 0.0.0.0:8080), got "${value}"`);
  const host = m[1]?.replace(/^\[(.*)\]$/, "$1");
  return host === undefined ? { port } : { host, port };
}

/** What a compiled executable's command line may hold, for messages. */
export const EXECUTABLE_USAGE =
  "takes --stdio (the default) or --http [host:]port; arguments after -- are left to the server's own code";

/**
 * Reads the transport flags from a process's arguments: `--http [host:]port` (or `--http=…`) selects
 * HTTP, `--stdio` forces stdio wherever it stands (the order of the flags does not matter); every
 * `--http` value is checked even then. Arguments after `--` are never read.
 * @param argv - arguments after the executable (and script).
 * @param strict - a compiled executable's command line: any other option (an argument starting with
 *   `-`) is a mistake. Otherwise other arguments are left alone (they may be the author's script's).
 *   Positional arguments are left alone either way.
 * @returns `undefined` when no flag is given, `"stdio"`, or the parsed `--http` value.
 * @throws HttpOptionsError on a missing or malformed `--http` value, or (strict) an unknown option.
 */
export function transportFromArgs(
  argv: readonly string[],
  strict = false,
): undefined | "stdio" | { host?: string; port: number } {
  let http: undefined | { host?: string; port: number };
  let stdio = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (a === "--stdio") stdio = true;
    else if (a === "--http") {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("-"))
        throw new HttpOptionsError("--http needs a value: --http [host:]port (e.g. --http 8080)");
      http = parseHttpFlag(next);
      i++;
    } else if (a.startsWith("--http=")) http = parseHttpFlag(a.slice("--http=".length));
    else if (strict && a.startsWith("-") && a !== "-") {
      const name = a.startsWith("--stdio=") ? `${a} (--stdio takes no value)` : `"${a}"`;
      throw new HttpOptionsError(`unknown option ${name}; this server ${EXECUTABLE_USAGE}`);
    }
  }
  return stdio ? "stdio" : http;
}

/**
 * Decides the transport and resolves the HTTP options: the command-line flag wins over
 * `serve({ http })` for host and port; `MCPBIN_HTTP_TOKEN` wins over `http.token`; `MCPBIN_STDIO=1`
 * forces stdio like `--stdio` (without an argument a script's own argument parser would see).
 * @param argv - the process's arguments after executable and script.
 * @param configured - `serve({ http })`: options, `true` (the defaults), or nothing. Options without a port apply
 *   when `--http` gives one; otherwise the answer is stdio (the options are checked all the same).
 * @param env - the environment (for `MCPBIN_HTTP_TOKEN` and `MCPBIN_STDIO`).
 * @param strict - refuse unknown options (a compiled executable's command line), see {@link transportFromArgs}.
 * @returns the resolved HTTP options, or `undefined` for stdio (also when no port is given by either).
 * @throws HttpOptionsError on an invalid option, naming it.
 */
export function resolveHttp(
  argv: readonly string[],
  configured: HttpOptions | boolean | undefined,
  env: Record<string, string | undefined> = process.env,
  strict = false,
): ResolvedHttpOptions | undefined {
  const flag = transportFromArgs(argv, strict);
  if (flag === "stdio" || env.MCPBIN_STDIO === "1") return undefined;
  if (flag === undefined && (configured === undefined || configured === false)) return undefined;
  const o: HttpOptions = typeof configured === "object" && configured !== null ? configured : {};
  const port = flag?.port ?? o.port;
  const r: ResolvedHttpOptions = {
    port: port ?? 0,
    host: flag?.host ?? o.host ?? HTTP_DEFAULTS.host,
    path: o.path ?? HTTP_DEFAULTS.path,
    token: env.MCPBIN_HTTP_TOKEN || o.token || undefined,
    auth: o.auth,
    allowedOrigins: o.allowedOrigins ?? [],
    allowedHosts: o.allowedHosts,
    maxBodyBytes: o.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
    requestTimeoutMs: o.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs,
    sessionIdleMs: o.sessionIdleMs ?? HTTP_DEFAULTS.sessionIdleMs,
    maxSessions: o.maxSessions ?? HTTP_DEFAULTS.maxSessions,
    maxSessionsPerClient: o.maxSessionsPerClient ?? o.maxSessions ?? HTTP_DEFAULTS.maxSessions,
    bodyTimeoutMs: o.bodyTimeoutMs ?? HTTP_DEFAULTS.bodyTimeoutMs,
    writeTimeoutMs: o.writeTimeoutMs ?? HTTP_DEFAULTS.writeTimeoutMs,
    maxUnsentBytes: o.maxUnsentBytes ?? HTTP_DEFAULTS.maxUnsentBytes,
    accessLog: o.accessLog ?? true,
    redis: env.MCPBIN_REDIS_URL || o.redis || undefined,
    retryMs: o.retryMs ?? HTTP_DEFAULTS.retryMs,
    keepAliveMs: o.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs,
    eventsPerStream: o.eventsPerStream ?? HTTP_DEFAULTS.eventsPerStream,
    eventsTotal: o.eventsTotal ?? HTTP_DEFAULTS.eventsTotal,
  };
  for (const [key, k] of Object.entries(HTTP_KEYS)) {
    const value = (r as unknown as Record<string, unknown>)[key];
    if (checkOption(k, value))
      throw new HttpOptionsError(`http.${key} must be ${k.expected}; got ${describeValue(value)}`);
  }
  // http.auth's own keys, checked before anything binds (src/auth/options.ts says what to change).
  if (r.auth !== undefined) {
    try {
      resolveAuth(r.auth, isLoopback(r.host));
    } catch (e) {
      throw e instanceof AuthOptionsError ? new HttpOptionsError(e.message) : e;
    }
  }
  return port === undefined ? undefined : r;
}

/** True for a loopback host name or address (localhost, 127.0.0.0/8, ::1). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}
