/** @module Server options (serve() and the config file share them) with their defaults. */
import { resolveJsonOptions, type JsonOptions } from "../shared/json.ts";
import { ToolDefinitionError } from "../tools/errors.ts";
import type { Tool } from "../tools/types.ts";
import type { HttpOptions } from "../transport/http-options.ts";
import type { App } from "../apps/app.ts";
import type { SkillSet } from "../skills/skill-set.ts";
import type { Middleware } from "./middleware-api.ts";
import type { ContentOptions } from "../content/catalog.ts";
import {
  checkOption,
  describeValue,
  HTTP_KEYS,
  KNOB_KEYS,
  keyProblem,
  MAX_TIMER_MS,
  nearestKey,
  SESSIONS_KEYS,
  UPSTREAMS_KEYS,
} from "../shared/option-keys.ts";
import type { UpstreamConfig } from "../client/servers-file.ts";
import type { NamingStrategy } from "../client/naming.ts";
import type { Store } from "../state/types.ts";
import type { SessionsOptions } from "../shared/sessions-options.ts";

/** Options of `serve()`; the config file takes the same keys. */
export interface ServerOptions extends ContentOptions {
  /** Server name, sent as `serverInfo.name`. */
  readonly name: string;
  /** Server version, sent as `serverInfo.version`. */
  readonly version: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  /** Guidance for the model, sent by `initialize` (every version) and `server/discover`. */
  readonly instructions?: string;
  /** The tools; nested arrays are flattened. */
  readonly tools: readonly (Tool | readonly Tool[])[];
  /**
   * Middleware around every request, outermost first (src/server/middleware.ts: rateLimit, maskErrors,
   * cacheResults, or your own `(request, next) => result`). None: the pipeline calls the handlers directly.
   */
  readonly middleware?: readonly Middleware[];
  /**
   * Advertise `tools.listChanged` (default true): every connected client is told after each `addTool`,
   * `removeTool`, `enableTool`. `false` declares a fixed tool set (it is advertised anyway to sessions that
   * begin after the tool set first changed).
   */
  readonly listChanged?: boolean;
  /** MCP Apps served besides those the tools link to with their `ui` option (src/apps/app.ts). */
  readonly apps?: readonly App[];
  /**
   * Agent Skills served over MCP (extension io.modelcontextprotocol/skills): folders (relative to the module
   * that calls serve(), or absolute) whose sub-folders with a SKILL.md are skills, or `skills()` sets.
   * `mcpbin build` embeds every file. See docs/skills.md.
   */
  readonly skills?: readonly (string | SkillSet)[];
  /**
   * Items per page of `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`
   * (cursors are stateless: any process of the same build accepts them). Default: every item on one page.
   */
  readonly pageSize?: number;
  /** Payload JSON rules for return values and structured content. */
  readonly json?: JsonOptions;
  /** Server-wide time limit per tool call, ms (a tool's own `timeoutMs` wins). Default 120000; 0 = none. */
  readonly timeoutMs?: number;
  /** Calls in flight at most before reading pauses (backpressure). Default 64. */
  readonly maxInFlight?: number;
  /** Largest result line in bytes; a larger result becomes an isError result. Default 16 MiB. */
  readonly maxResultBytes?: number;
  /** Largest input line in bytes; a longer line gets -32700 and is skipped. Default 16 MiB. */
  readonly maxLineBytes?: number;
  /** On stdin EOF or SIGTERM/SIGINT: how long in-flight calls may finish before they are aborted, ms. Default 5000. */
  readonly shutdownGraceMs?: number;
  /** Legacy eras: how long one `ctx.elicit`/`ctx.sample`/`ctx.roots` waits for the client's answer, ms. Default 60000; 0 = none. */
  readonly askTimeoutMs?: number;
  /**
   * Serve over Streamable HTTP instead of stdio (`true`: defaults, port from `--http`). The
   * command-line flag `--http [host:]port` selects HTTP too and wins for host and port; `--stdio` forces stdio.
   */
  readonly http?: HttpOptions | boolean;
  /**
   * Other MCP servers fronted beside this server's own tools (src/client/gateway.ts): name → `{ command, args?,
   * env?, cwd? }` (stdio) or `{ url, headers? }` (Streamable HTTP), with the keys of an `mcpServers` entry
   * (`include`/`exclude`, `aliases`, `start`, `startTimeoutMs`, `timeoutMs`, `inheritEnv`, `disabled`);
   * `${VAR}` is expanded from the environment when the server starts (never at build time).
   */
  readonly upstreams?: Readonly<Record<string, UpstreamConfig>>;
  /** How upstream tool names become ours (default "on-collision": only names that collide become `<server>__<tool>`). */
  readonly upstreamNaming?: NamingStrategy;
  /**
   * Tasks (docs/tasks.md): where they are kept and for how long. Tools opt in with `task: "optional" | "required"`;
   * without this key such tools use the defaults (memory store, 1 hour).
   */
  readonly tasks?: TasksOptions;
  /**
   * Offer the tools of a live session (a running program that called `session()` from `mcpbin/session`) beside
   * this server's own, with `list_sessions` and `select_session` (docs/sessions.md): `true` or
   * `{ timeoutMs?, queue?, concurrency?, workers?, evalOverHttp?, dir? }`.
   */
  readonly sessions?: SessionsOptions | true;
}

/** The `tasks` option of `serve()` (MCP 2025-11-25 basic/utilities/tasks; 2026-07-28 extension io.modelcontextprotocol/tasks). */
export interface TasksOptions {
  /**
   * Where tasks are kept: `"memory"` (the default; lost when the process ends), `"file"` (one file per task in
   * `dir`, so tasks survive a restart), `"redis"` (`url`, shared by several processes), or your own {@link Store}.
   */
  readonly store?: "memory" | "file" | "redis" | Store;
  /** The directory of the file store (default `.mcpbin-tasks` in the working directory). */
  readonly dir?: string;
  /** The Redis URL of the redis store (default `MCPBIN_REDIS_URL`, the replicas' shared Redis; else `REDIS_URL`, else redis://localhost:6379). */
  readonly url?: string;
  /** How long a task is kept from its creation, ms (default 3,600,000); a client's shorter `ttl` is honoured. */
  readonly ttlMs?: number;
  /** The longest `ttl` a client may ask for, ms (default 86,400,000). */
  readonly maxTtlMs?: number;
  /** The polling interval suggested to clients, ms (default 1,000). */
  readonly pollIntervalMs?: number;
  /** The key prefix of every task in the store (default `mcpbin:tasks:`), so that several servers can share one store. */
  readonly prefix?: string;
  /** How many tasks one owner may have running in one process at once (default 100); one more is refused with -32603. */
  readonly maxRunning?: number;
}

/** The defaults, documented in docs/reference.md ("Server options and their defaults"). */
export const DEFAULTS = {
  timeoutMs: 120_000,
  maxInFlight: 64,
  maxResultBytes: 16 * 1024 * 1024,
  maxLineBytes: 16 * 1024 * 1024,
  shutdownGraceMs: 5_000,
  askTimeoutMs: 60_000,
} as const;

/** Options with every default filled in. */
export type ResolvedOptions = ServerOptions & { [K in keyof typeof DEFAULTS]: number } & {
  readonly json: Required<JsonOptions>;
};

export { MAX_TIMER_MS };

/** Every key `serve()` takes, in the order of docs/reference.md's table (the compiler checks that none of ServerOptions is missing). */
export const SERVE_KEYS = [
  "name",
  "version",
  "title",
  "instructions",
  "tools",
  "resources",
  "prompts",
  "apps",
  "skills",
  "middleware",
  "listChanged",
  "pageSize",
  "json",
  "timeoutMs",
  "maxInFlight",
  "maxResultBytes",
  "maxLineBytes",
  "shutdownGraceMs",
  "askTimeoutMs",
  "http",
  "upstreams",
  "upstreamNaming",
  "tasks",
  "sessions",
] as const satisfies readonly (keyof ServerOptions)[];
const ALL_KEYS_LISTED: [Exclude<keyof ServerOptions, (typeof SERVE_KEYS)[number]>] extends [never] ? true : never =
  true;
void ALL_KEYS_LISTED;

/**
 * Refuses an option `serve()` does not know (a typo such as `maxInflight` would otherwise be ignored).
 * @throws ToolDefinitionError naming the key, the key it probably meant, and the allowed keys.
 */
function checkKnownKeys(o: ServerOptions): void {
  for (const key of Object.keys(o)) {
    if ((SERVE_KEYS as readonly string[]).includes(key)) continue;
    const near = nearestKey(key, SERVE_KEYS);
    throw new ToolDefinitionError(
      `serve(): "${key}" is not a known option${near ? ` (did you mean "${near}"?)` : ""}; allowed: ${SERVE_KEYS.join(", ")}`,
    );
  }
}

/**
 * Fills in the defaults.
 * @throws JsonOptionsError on unknown payload JSON options.
 * @throws ToolDefinitionError for an unknown key, or when a knob is out of range (`maxInFlight: 0` would stop reading for good;
 *   a timer over 2^31 - 1 ms would fire at once).
 */
export function resolveOptions(o: ServerOptions): ResolvedOptions {
  checkKnownKeys(o);
  for (const [key, k] of Object.entries(KNOB_KEYS)) {
    const value = (o as unknown as Record<string, unknown>)[key];
    if (value !== undefined && checkOption(k, value))
      throw new ToolDefinitionError(`serve(): "${key}" must be ${k.expected}; got ${describeValue(value)}`);
  }
  const upstreams = keyProblem({ upstreams: o.upstreams, upstreamNaming: o.upstreamNaming }, UPSTREAMS_KEYS);
  if (upstreams) throw new ToolDefinitionError(`serve(): ${upstreams}`);
  const sessions = keyProblem({ sessions: o.sessions }, SESSIONS_KEYS);
  if (sessions) throw new ToolDefinitionError(`serve(): ${sessions}`);
  // Checked here, not only when HTTP is chosen: `--stdio` must not hide an `http` key that does nothing.
  if (typeof o.http === "object" && o.http !== null) {
    const http = keyProblem(o.http as Record<string, unknown>, HTTP_KEYS, "http.");
    if (http) throw new ToolDefinitionError(`serve(): ${http}`);
  }
  return {
    ...o,
    json: resolveJsonOptions(o.json),
    timeoutMs: o.timeoutMs ?? DEFAULTS.timeoutMs,
    maxInFlight: o.maxInFlight ?? DEFAULTS.maxInFlight,
    maxResultBytes: o.maxResultBytes ?? DEFAULTS.maxResultBytes,
    maxLineBytes: o.maxLineBytes ?? DEFAULTS.maxLineBytes,
    shutdownGraceMs: o.shutdownGraceMs ?? DEFAULTS.shutdownGraceMs,
    askTimeoutMs: o.askTimeoutMs ?? DEFAULTS.askTimeoutMs,
  };
}
