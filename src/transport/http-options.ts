/** @module Options of the Streamable HTTP transport: `--http [host:]port`, `serve({ http })`, defaults and checks (the shape is src/shared/http-options.ts). */
import { AuthOptionsError, resolveAuth } from "../auth/options.ts";
import type { AuthOptions, HttpOptions } from "../shared/http-options.ts";
import { checkOption, describeValue } from "../shared/option-keys.ts";
import { HTTP_KEYS } from "../shared/server-keys.ts";

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
  readonly drainMs: number;
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
    drainMs: env.MCPBIN_HTTP_DRAIN_MS ? Number(env.MCPBIN_HTTP_DRAIN_MS) : (o.drainMs ?? 0),
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
