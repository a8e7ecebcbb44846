/** @module The server options' rules in one place: a valibot schema and the words for what is expected, per key; serve(), the config file and the HTTP options all check with them (src/shared/option-keys.ts). */
import * as v from "valibot";
import { once } from "../runtime/once.ts";
import { MAX_TIMER_MS, opt, type OptionKey } from "./option-keys.ts";

const text = once(() => v.pipe(v.string(), v.nonEmpty()));
const count = once(() => v.pipe(v.number(), v.integer(), v.minValue(1)));
const patterns = once(() => v.array(text()));
/** Milliseconds a timer can wait: 0 to {@link MAX_TIMER_MS}. */
const ms = once(() => v.pipe(v.number(), v.minValue(0), v.maxValue(MAX_TIMER_MS)));
const intMs = once(() => v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_TIMER_MS)));
const oneOf = (...xs: string[]) => `one of ${xs.map((x) => JSON.stringify(x)).join(", ")}`;

/** The keys of the `json` option (payload JSON, src/shared/json.ts). */
export const JSON_KEYS: Record<string, OptionKey> = {
  nonFinite: opt(() => v.picklist(["null", "string", "error"]), oneOf("null", "string", "error")),
  bigint: opt(() => v.picklist(["string", "number", "error"]), oneOf("string", "number", "error")),
};

/** The keys of the `http` option (src/transport/http-options.ts). */
export const HTTP_KEYS: Record<string, OptionKey> = {
  port: opt(
    () => v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535)),
    "an integer 0-65535 (0 picks a free port)",
  ),
  host: opt(() => text(), 'a non-empty string (the interface to bind, e.g. "127.0.0.1" or "0.0.0.0")'),
  path: opt(
    () => v.pipe(v.string(), v.startsWith("/"), v.notValue("/healthz")),
    'a path starting with "/" other than "/healthz" (e.g. "/mcp")',
  ),
  token: opt(() => text(), "a non-empty string (prefer the MCPBIN_HTTP_TOKEN environment variable)"),
  // Its own keys are checked by src/auth/options.ts resolveAuth(), with messages naming each.
  auth: opt(
    () => v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x)),
    "an object { issuer | issuers, resource, audience?, scopes?, introspection? } (OAuth 2.1, docs/auth.md)",
  ),
  allowedOrigins: opt(() => patterns(), 'an array of origins (e.g. ["https://app.example.com"]; "*" for any)'),
  allowedHosts: opt(() => patterns(), 'an array of host names (e.g. ["mcp.example.com"])'),
  maxBodyBytes: opt(() => count(), "an integer number of bytes ≥ 1"),
  requestTimeoutMs: opt(() => intMs(), `an integer number of milliseconds from 0 (no limit) to ${MAX_TIMER_MS}`),
  sessionIdleMs: opt(() => intMs(), `an integer number of milliseconds from 0 (never) to ${MAX_TIMER_MS}`),
  maxSessions: opt(() => count(), "an integer ≥ 1"),
  maxSessionsPerClient: opt(() => count(), "an integer ≥ 1"),
  bodyTimeoutMs: opt(
    () => v.pipe(intMs(), v.minValue(1)),
    `an integer number of milliseconds from 1 to ${MAX_TIMER_MS}`,
  ),
  writeTimeoutMs: opt(() => intMs(), `an integer number of milliseconds from 0 (no limit) to ${MAX_TIMER_MS}`),
  drainMs: opt(() => intMs(), `an integer number of milliseconds from 0 (close at once) to ${MAX_TIMER_MS}`),
  maxUnsentBytes: opt(() => count(), "an integer number of bytes ≥ 1"),
  accessLog: opt(() => v.boolean(), "true or false"),
  redis: opt(
    () => v.pipe(v.string(), v.regex(/^rediss?:\/\/\S+$/)),
    'a Redis URL, "redis://host:port" or "rediss://…" (prefer the MCPBIN_REDIS_URL environment variable)',
  ),
  retryMs: opt(
    () => intMs(),
    `an integer number of milliseconds from 0 to ${MAX_TIMER_MS} (the SSE retry of legacy streams)`,
  ),
  keepAliveMs: opt(() => intMs(), `an integer number of milliseconds from 0 (none) to ${MAX_TIMER_MS}`),
  eventsPerStream: opt(() => count(), "an integer ≥ 1 (events a legacy SSE stream keeps for a resumption)"),
  eventsTotal: opt(() => count(), "an integer ≥ 1 (events kept for resumptions over every legacy stream)"),
};

/** The numeric knobs of the server (serve() and the config file). */
export const KNOB_KEYS: Record<string, OptionKey> = {
  timeoutMs: opt(() => ms(), `a number of milliseconds from 0 (no limit) to ${MAX_TIMER_MS}`),
  maxInFlight: opt(() => count(), "an integer ≥ 1"),
  pageSize: opt(() => count(), "an integer ≥ 1 (items per page of the list methods)"),
  maxResultBytes: opt(() => count(), "an integer number of bytes ≥ 1"),
  maxLineBytes: opt(() => count(), "an integer number of bytes ≥ 1"),
  shutdownGraceMs: opt(() => ms(), `a number of milliseconds from 0 to ${MAX_TIMER_MS}`),
  askTimeoutMs: opt(() => ms(), `a number of milliseconds from 0 (no limit) to ${MAX_TIMER_MS}`),
};

const strings = once(() => v.array(v.string()));
const stringMap = once(() => v.record(v.string(), v.string()));

/**
 * The keys of one upstream entry (the `upstreams` option, and per entry of an `mcpServers`/`servers` file:
 * src/client/servers-file.ts): a command (stdio) or a URL (Streamable HTTP), plus what the gateway does with it.
 */
export const UPSTREAM_KEYS: Record<string, OptionKey> = {
  command: opt(() => text(), "a non-empty string (the program to run over stdio: an absolute path, or a name on PATH)"),
  args: opt(() => strings(), "an array of strings"),
  env: opt(() => stringMap(), "an object of strings (variables the child gets besides the allow-listed ones)"),
  cwd: opt(() => text(), "a non-empty string (the child's working directory)"),
  url: opt(() => text(), 'a non-empty string (a Streamable HTTP endpoint, e.g. "https://mcp.example.com/mcp")'),
  headers: opt(() => stringMap(), "an object of strings (HTTP headers sent to the upstream)"),
  oauth: opt(
    () =>
      v.union([
        v.boolean(),
        v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x)),
      ]),
    "true, or an object { clientId?, clientSecret?, scopes?, grant? } (sign in with OAuth 2.1 when the upstream asks; docs/auth.md)",
  ),
  type: opt(() => v.picklist(["stdio", "http", "streamable-http", "streamableHttp"]), oneOf("stdio", "http")),
  disabled: opt(() => v.boolean(), "true or false"),
  include: opt(() => patterns(), 'an array of upstream tool-name glob patterns (e.g. ["search_*"])'),
  exclude: opt(() => patterns(), 'an array of upstream tool-name glob patterns (e.g. ["delete_*"])'),
  aliases: opt(() => stringMap(), "an object of upstream tool name → exposed name"),
  start: opt(
    () => v.picklist(["eager", "lazy"]),
    `${oneOf("eager", "lazy")} (start with the server, or at the first tools/list or tools/call)`,
  ),
  startTimeoutMs: opt(
    () => intMs(),
    `an integer number of milliseconds from 0 to ${MAX_TIMER_MS} (how long its handshake may take before it is left out until it answers)`,
  ),
  timeoutMs: opt(() => intMs(), `an integer number of milliseconds from 0 (no limit) to ${MAX_TIMER_MS} (per call)`),
  inheritEnv: opt(() => v.array(text()), "an array of variable names the child inherits from our environment"),
  instructions: opt(() => v.boolean(), "true or false (false: its instructions are left out of ours)"),
};

/** The `upstreams` option and its naming strategy (src/client/gateway.ts). */
export const UPSTREAMS_KEYS: Record<string, OptionKey> = {
  upstreams: opt(
    () =>
      v.record(
        v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)),
        v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x)),
      ),
    "an object of server name (A-Z a-z 0-9 _ -) → { command, args?, env?, cwd? } or { url, headers? } (other MCP servers fronted beside the own tools)",
    {
      entries: UPSTREAM_KEYS,
      entry: (e) =>
        (e.command === undefined) === (e.url === undefined)
          ? '"command" (a program to run over stdio) or "url" (a Streamable HTTP endpoint), one of them'
          : undefined,
    },
  ),
  upstreamNaming: opt(
    () => v.picklist(["on-collision", "prefix", "none"]),
    `${oneOf("on-collision", "prefix", "none")} (how upstream tool names become ours)`,
  ),
};

/** The keys of `sessions.workers` (src/sessions/workers.ts). */
export const SESSION_WORKER_KEYS: Record<string, OptionKey> = {
  module: opt(
    () => text(),
    'a non-empty string (the module each worker runs, relative to the working directory, e.g. "./worker.ts")',
  ),
  max: opt(() => count(), "an integer ≥ 1 (workers running at once)"),
};

/** The keys of the `sessions` option (src/sessions/options.ts). */
export const SESSION_KEYS: Record<string, OptionKey> = {
  timeoutMs: opt(
    () => intMs(),
    `an integer number of milliseconds from 0 (no limit) to ${MAX_TIMER_MS} (per call, waiting included)`,
  ),
  queue: opt(() => v.pipe(v.number(), v.integer(), v.minValue(0)), "an integer ≥ 0 (calls waiting per session)"),
  concurrency: opt(() => count(), "an integer ≥ 1 (calls running in one session at once)"),
  workers: opt(
    () =>
      v.custom<Record<string, unknown>>(
        (x) =>
          typeof x === "object" &&
          x !== null &&
          !Array.isArray(x) &&
          typeof (x as { module?: unknown }).module === "string",
      ),
    '{ module: "./worker.ts", max?: 2 }',
    { keys: SESSION_WORKER_KEYS },
  ),
  evalOverHttp: opt(() => v.boolean(), "true or false (offer a session's evaluate tool over --http too)"),
  dir: opt(
    () => text(),
    "a non-empty string (the session directory; default $MCPBIN_SESSION_DIR, $XDG_RUNTIME_DIR/mcpbin, $TMPDIR/mcpbin-<uid>)",
  ),
};

/** The `sessions` option (docs/sessions.md): `true` or an object of {@link SESSION_KEYS}. */
export const SESSIONS_KEYS: Record<string, OptionKey> = {
  sessions: opt(
    () =>
      v.union([
        v.literal(true),
        v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x)),
      ]),
    "true, or an object { timeoutMs?, queue?, concurrency?, workers?, evalOverHttp?, dir? } (live sessions: docs/sessions.md)",
    { keys: SESSION_KEYS },
  ),
};
