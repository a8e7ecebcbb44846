/** @module The task engine of each server, made on first use from its `tasks` option; and who owns a request's tasks. */
import { ToolDefinitionError } from "../tools/errors.ts";
import { unknownKey } from "../shared/option-keys.ts";
import type { RequestContext, ServerState } from "../server/context.ts";
import type { TasksOptions } from "../shared/server-options.ts";
import { fileStore } from "../state/file.ts";
import { memoryStore } from "../state/memory.ts";
import { redisStore } from "../state/redis.ts";
import type { Store } from "../shared/store.ts";
import { TaskEngine, type TasksConfig } from "./engine.ts";

const engines = new WeakMap<ServerState, TaskEngine>();

const DEFAULT_TTL_MS = 3_600_000;
const DEFAULT_MAX_TTL_MS = 86_400_000;
const DEFAULT_POLL_MS = 1_000;
const KEYS = ["store", "dir", "url", "ttlMs", "maxTtlMs", "pollIntervalMs", "prefix", "maxRunning"];
const DEFAULT_MAX_RUNNING = 100;

const isStore = (s: unknown): s is Store =>
  typeof s === "object" &&
  s !== null &&
  ["get", "set", "delete", "keys", "incr"].every((m) => typeof (s as Record<string, unknown>)[m] === "function");

/**
 * Checks the `tasks` option (at createServer(), so that a mistake fails the start with what to change).
 * @throws ToolDefinitionError naming the key.
 */
export function checkTasksOptions(o: TasksOptions | undefined): void {
  if (o === undefined) return;
  const where = 'serve(): "tasks"';
  if (typeof o !== "object" || o === null || Array.isArray(o))
    throw new ToolDefinitionError(`${where} must be an object such as { store: "memory", ttlMs: 3600000 }`);
  const unknown = unknownKey(o, KEYS, "tasks.");
  if (unknown) throw new ToolDefinitionError(`serve(): ${unknown}`);
  const s = o.store;
  if (s !== undefined && s !== "memory" && s !== "file" && s !== "redis" && !isStore(s)) {
    throw new ToolDefinitionError(
      `${where}.store must be "memory", "file", "redis" or a Store (get, set, delete, keys, incr); got ${JSON.stringify(s)}`,
    );
  }
  for (const k of ["ttlMs", "maxTtlMs", "pollIntervalMs", "maxRunning"] as const) {
    const v = o[k];
    if (v !== undefined && !(typeof v === "number" && Number.isInteger(v) && v > 0 && v <= 2_147_483_647))
      throw new ToolDefinitionError(
        `${where}.${k} must be a positive integer (milliseconds, or a count for maxRunning); got ${JSON.stringify(v)}`,
      );
  }
  for (const k of ["dir", "url", "prefix"] as const) {
    const v = o[k];
    if (v !== undefined && (typeof v !== "string" || v === ""))
      throw new ToolDefinitionError(`${where}.${k} must be a non-empty string; got ${JSON.stringify(v)}`);
  }
}

/**
 * Whether a server has tasks: the `tasks` option, upstreams, or a tool that may run as one. A server with upstreams
 * declares tasks whatever tools it holds now: its capabilities are fixed at a session's handshake, while its
 * upstreams' tools arrive after it (reached in memory, a lazy upstream, a late joiner, a restart), and a tool it lists
 * as a task must never meet a session told the server has none (MCP 2025-11-25 basic/utilities/tasks).
 */
export function hasTasks(registry: ServerState): boolean {
  if (registry.options.tasks !== undefined || registry.options.upstreams !== undefined) return true;
  for (const t of (
    registry as unknown as { tools: ReadonlyMap<string, { definition: { task?: string } }> }
  ).tools.values()) {
    const s = t.definition.task;
    if (s === "optional" || s === "required") return true;
  }
  return false;
}

/**
 * The server's task engine, made on its first use.
 * @returns the engine, or undefined for a server without tasks.
 */
export function engineOf(registry: ServerState): TaskEngine | undefined {
  let e = engines.get(registry);
  if (e !== undefined || !hasTasks(registry)) return e;
  const o = registry.options.tasks ?? {};
  const s = o.store ?? "memory";
  const store =
    s === "memory"
      ? memoryStore()
      : s === "file"
        ? fileStore(o.dir ?? ".mcpbin-tasks")
        : s === "redis"
          ? redisStore(o.url ?? (process.env.MCPBIN_REDIS_URL || undefined))
          : s;
  const config: TasksConfig = {
    store,
    local: s === "memory",
    ttlMs: o.ttlMs ?? DEFAULT_TTL_MS,
    maxTtlMs: Math.max(o.maxTtlMs ?? DEFAULT_MAX_TTL_MS, o.ttlMs ?? 0),
    pollIntervalMs: o.pollIntervalMs ?? DEFAULT_POLL_MS,
    prefix: o.prefix ?? "mcpbin:tasks:",
    maxRunning: o.maxRunning ?? DEFAULT_MAX_RUNNING,
  };
  e = new TaskEngine(config);
  engines.set(registry, e);
  // The file store removes an expired file when it reads it: a walk every 10 minutes keeps the directory bounded.
  if (s === "file") setInterval(() => void store.keys(config.prefix).catch(() => {}), 600_000).unref();
  return e;
}

/**
 * Who a request's tasks belong to (MCP 2025-11-25 basic/utilities/tasks "Task Isolation and Access Control"):
 * the authenticated issuer and subject together (`ctx.auth.issuer`, `ctx.auth.subject`: one subject name at two
 * trusted issuers is two people, as for sessions and `rateLimit`), else the legacy HTTP session, else nobody in
 * particular: then the unguessable task id alone guards the task (stdio: the one client of the process, so a
 * restarted process still finds its tasks).
 */
export function ownerOf(ctx: RequestContext): string {
  const auth = ctx.auth as { token: string; subject?: unknown; issuer?: unknown } | undefined;
  if (auth && typeof auth.subject === "string" && auth.subject !== "")
    return `sub:${typeof auth.issuer === "string" ? auth.issuer : ""}\u0000${auth.subject}`;
  // A bearer token alone is no identity (the server's one token is shared by every client): the session decides.
  if (ctx.session) return `session:${ctx.session.id}`;
  return "anonymous";
}
