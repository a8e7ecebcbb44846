/** @module The shape of the server options (serve() and the config file share them) and the list of their keys: a shared shape (src/shared/), imports nothing of ours but other shapes. */
import type { JsonOptions } from "./json.ts";
import type { HttpOptions } from "./http-options.ts";
import type { UpstreamConfig, NamingStrategy } from "./upstreams.ts";
import type { SessionsOptions } from "./sessions-options.ts";
import type { Store } from "./store.ts";

/**
 * Options of `serve()`; the config file takes the same keys. The keys that hold a capability's definitions are
 * declared by that capability, merged into this interface (`declare module`): `tools` (src/tools/types.ts),
 * `resources` and `prompts` (src/content/options.ts), `apps` (src/apps/app.ts), `skills` (src/skills/skill-set.ts),
 * `middleware` (src/server/middleware.ts); every key is listed in {@link SERVE_KEYS}.
 */
export interface ServerOptions {
  /** Server name, sent as `serverInfo.name`. */
  readonly name: string;
  /** Server version, sent as `serverInfo.version`. */
  readonly version: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  /** Guidance for the model, sent by `initialize` (every version) and `server/discover`. */
  readonly instructions?: string;
  /**
   * Advertise `tools.listChanged` (default true): every connected client is told after each `addTool`,
   * `removeTool`, `enableTool`. `false` declares a fixed tool set (it is advertised anyway to sessions that
   * begin after the tool set first changed).
   */
  readonly listChanged?: boolean;
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
