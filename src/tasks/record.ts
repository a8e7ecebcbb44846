/** @module A task as it is stored (one JSON value per task) and as each era sends it: 2025-11-25 `Task`, the 2026-07-28 extension's `Task` and `DetailedTask`. */

/** The extension's identifier (MCP 2026-07-28 extension io.modelcontextprotocol/tasks). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The `_meta` key that ties 2025-11-25 messages to their task (basic/utilities/tasks "Related Task Metadata"). */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** A task's status (both eras). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The statuses a task never leaves. */
export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** One outstanding request to the client, as `inputRequests` carries it. */
export interface InputRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** A task in the store. Times are epoch milliseconds. */
export interface TaskRecord {
  /** The task id: 128 random bits, base64url. */
  readonly id: string;
  /** The era of the call that created it (what its methods speak). */
  readonly era: "legacy" | "modern";
  /** The tool it runs. */
  readonly tool: string;
  /** The process running it (see TaskEngine's runner liveness). */
  readonly runner: string;
  readonly createdAt: number;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  status: TaskStatus;
  statusMessage?: string;
  lastUpdatedAt: number;
  /** The tool's result (completed; 2025-11-25 also failed with isError). */
  result?: Record<string, unknown>;
  /** The JSON-RPC error the call failed with (failed). */
  error?: { code: number; message: string; data?: unknown };
  /** The outstanding requests to the client, by key (input_required). */
  inputRequests?: Record<string, InputRequest>;
  /** Answers delivered by another process (tasks/update there), for the runner to take. */
  answers?: Record<string, unknown>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The 2025-11-25 `Task` (basic/utilities/tasks "Data Types"): `ttl` and `pollInterval` in ms.
 * @param r - the task.
 */
export function legacyTask(r: TaskRecord): Record<string, unknown> {
  const t: Record<string, unknown> = { taskId: r.id, status: r.status };
  if (r.statusMessage !== undefined) t.statusMessage = r.statusMessage;
  t.createdAt = iso(r.createdAt);
  t.lastUpdatedAt = iso(r.lastUpdatedAt);
  t.ttl = r.ttlMs;
  t.pollInterval = r.pollIntervalMs;
  return t;
}

/**
 * The 2026-07-28 extension's `Task` (`ttlMs`, `pollIntervalMs`: integer ms; no `requestState`), and with
 * `detailed` its `DetailedTask`: `result` when completed, `error` when failed, `inputRequests` when input_required.
 * @param r - the task.
 * @param detailed - whether to inline the status's payload (tasks/get) or not (CreateTaskResult).
 * @param result - the result to inline, projected for the version (completed).
 */
export function modernTask(
  r: TaskRecord,
  detailed: boolean,
  result?: Record<string, unknown>,
): Record<string, unknown> {
  const t: Record<string, unknown> = { taskId: r.id, status: r.status };
  if (r.statusMessage !== undefined) t.statusMessage = r.statusMessage;
  t.createdAt = iso(r.createdAt);
  t.lastUpdatedAt = iso(r.lastUpdatedAt);
  t.ttlMs = Math.round(r.ttlMs);
  t.pollIntervalMs = Math.max(1, Math.round(r.pollIntervalMs));
  if (!detailed) return t;
  if (r.status === "completed" && result !== undefined) t.result = result;
  if (r.status === "failed" && r.error !== undefined) t.error = r.error;
  if (r.status === "input_required") t.inputRequests = r.inputRequests ?? {};
  return t;
}
