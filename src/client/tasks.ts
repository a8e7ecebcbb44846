/** @module A client's tasks (MCP 2025-11-25 basic/utilities/tasks; 2026-07-28 extension io.modelcontextprotocol/tasks): call a tool as a task, poll it, answer its questions, cancel it, wait for its result — one API for both eras. */

import { OutboundError } from "../server/outbound.ts";

type Json = Record<string, unknown>;

/** The extension's identifier. */
const EXT = "io.modelcontextprotocol/tasks";

/** What the tasks API needs of a connection (McpClient has it). */
export interface TaskConnection {
  readonly era: "modern" | "legacy";
  readonly protocolVersion: string;
  readonly serverCapabilities: Json;
  readonly label: string;
  request(
    method: string,
    params?: Json,
    opts?: { signal?: AbortSignal; timeoutMs?: number; capabilities?: Json; onRequest?: TaskAnswerer },
  ): Promise<Json>;
}

/** Answers one of the server's questions (elicitation/create, sampling/createMessage, roots/list) with its result. */
export type TaskAnswerer = (
  method: string,
  params: Json | undefined,
  ctx: { readonly signal: AbortSignal; readonly key?: string },
) => Promise<unknown>;

/** A task as either era reports it, with the 2026-07-28 field names. */
export interface ClientTask {
  readonly taskId: string;
  readonly status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** ms, null for unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** 2026-07-28 completed: the tool's result. */
  readonly result?: Json;
  /** 2026-07-28 failed: the JSON-RPC error. */
  readonly error?: { code: number; message: string; data?: unknown };
  /** 2026-07-28 input_required: the server's questions by key. */
  readonly inputRequests?: Record<string, { method: string; params?: Json }>;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** One era's task object in 2026-07-28 terms. */
function normalize(t: Json): ClientTask {
  const out: Json = { ...t };
  if ("ttl" in t) {
    out.ttlMs = t.ttl;
    delete out.ttl;
  }
  if ("pollInterval" in t) {
    out.pollIntervalMs = t.pollInterval;
    delete out.pollInterval;
  }
  delete out.resultType;
  delete out._meta;
  return out as unknown as ClientTask;
}

/** A client's tasks on one server: `client.tasks` ({@link McpClient}). */
export class ClientTasks {
  /**
   * @param c - the connection.
   * @param declared - the client capabilities the connection declares.
   */
  constructor(
    readonly c: TaskConnection,
    readonly declared: () => Json,
  ) {}

  /** Whether the server takes tasks: 2025-11-25 `capabilities.tasks.requests.tools.call`, 2026-07-28 the extension. */
  get supported(): boolean {
    const caps = this.c.serverCapabilities;
    if (this.c.era === "modern") return (caps.extensions as Json | undefined)?.[EXT] !== undefined;
    return (
      this.c.protocolVersion === "2025-11-25" &&
      ((caps.tasks as Json | undefined)?.requests as Json | undefined)?.tools !== undefined
    );
  }

  /**
   * Calls a tool as a task where the server takes one (2025-11-25: `params.task`, for a tool whose
   * `execution.taskSupport` allows it; 2026-07-28: the extension declared, the server decides).
   * @param name - the tool.
   * @param args - its arguments.
   * @param opts - `ttlMs` (2025-11-25: the requested time to live), `signal`, `timeoutMs`.
   * @returns `{ task }`, or `{ result }` when the server answered with a plain result (no tasks, or it chose not to).
   * @throws OutboundError as McpClient.request (e.g. -32601 for a tool that forbids tasks at 2025-11-25).
   */
  async call(
    name: string,
    args: Json = {},
    opts: { ttlMs?: number; signal?: AbortSignal; timeoutMs?: number; onRequest?: TaskAnswerer } = {},
  ): Promise<{ task: ClientTask } | { result: Json }> {
    const params: Json = { name, arguments: args };
    if (this.c.era === "legacy" && this.supported) params.task = opts.ttlMs === undefined ? {} : { ttl: opts.ttlMs };
    const r = await this.c.request("tools/call", params, {
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
      capabilities: this.#withExtension(),
      onRequest: opts.onRequest,
    });
    if (this.c.era === "legacy" && r.task && typeof r.task === "object") return { task: normalize(r.task as Json) };
    if (r.resultType === "task") return { task: normalize(r) };
    return { result: r };
  }

  /** The task's state (`tasks/get`). @throws OutboundError ("rpc" -32602 for an unknown task). */
  async get(taskId: string, opts: { signal?: AbortSignal } = {}): Promise<ClientTask> {
    return normalize(
      await this.c.request("tasks/get", { taskId }, { signal: opts.signal, capabilities: this.#withExtension() }),
    );
  }

  /** Asks the server to cancel the task (`tasks/cancel`); a finished task is left as it is. */
  async cancel(taskId: string): Promise<void> {
    try {
      await this.c.request("tasks/cancel", { taskId }, { capabilities: this.#withExtension() });
    } catch (e) {
      // 2025-11-25 answers -32602 for a task already finished; 2026-07-28 acknowledges it.
      if (
        (e as { rpc?: { code?: number } }).rpc?.code !== -32602 ||
        !(await this.get(taskId).then(
          (t) => TERMINAL.has(t.status),
          () => false,
        ))
      )
        throw e;
    }
  }

  /**
   * Waits for the task's result: polls `tasks/get` at the task's interval, answers its questions with `onRequest`
   * (2026-07-28 `tasks/update`; 2025-11-25 through `tasks/result`, which then blocks), and returns what the
   * plain call would have returned.
   * @param opts - `onStatus` (each state polled), `onRequest` (the questions), `signal` (stops waiting; the task goes on).
   * @throws OutboundError "rpc" with the call's JSON-RPC error (a failed task), or for a cancelled task.
   */
  async result(
    taskId: string,
    opts: { onStatus?: (t: ClientTask) => void; onRequest?: TaskAnswerer; signal?: AbortSignal } = {},
  ): Promise<Json> {
    const answered = new Set<string>();
    for (;;) {
      opts.signal?.throwIfAborted();
      const t = await this.get(taskId, { signal: opts.signal });
      opts.onStatus?.(t);
      if (this.c.era === "legacy" && (t.status === "input_required" || TERMINAL.has(t.status))) {
        const r = await this.c.request(
          "tasks/result",
          { taskId },
          { signal: opts.signal, timeoutMs: 0, onRequest: opts.onRequest },
        );
        const meta = { ...(r._meta as Json | undefined) };
        delete meta["io.modelcontextprotocol/related-task"];
        const { _meta: _, ...rest } = r;
        return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
      }
      if (t.status === "completed") return t.result ?? {};
      if (t.status === "failed" || t.status === "cancelled") {
        const rpc = t.error ?? {
          code: -32603,
          message: `task ${taskId} was ${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ""}`,
        };
        throw new OutboundError("rpc", `${this.c.label}: task ${taskId}: ${rpc.message}`, rpc);
      }
      if (t.status === "input_required" && opts.onRequest && t.inputRequests) {
        const fresh = Object.entries(t.inputRequests).filter(([k]) => !answered.has(k));
        if (fresh.length > 0) {
          const ac = new AbortController();
          const signal = opts.signal ? AbortSignal.any([opts.signal, ac.signal]) : ac.signal;
          const answers = await Promise.all(
            fresh.map(([key, q]) => opts.onRequest!(q.method, q.params, { signal, key })),
          );
          fresh.forEach(([k]) => answered.add(k));
          await this.c.request(
            "tasks/update",
            { taskId, inputResponses: Object.fromEntries(fresh.map(([k], i) => [k, answers[i]])) },
            { capabilities: this.#withExtension() },
          );
          continue;
        }
      }
      await Bun.sleep(Math.min(Math.max(t.pollIntervalMs ?? 1000, 20), 5000));
    }
  }

  /** 2026-07-28: the connection's capabilities with the extension declared (legacy: unchanged). */
  #withExtension(): Json | undefined {
    if (this.c.era !== "modern") return undefined;
    const caps = this.declared();
    return { ...caps, extensions: { ...(caps.extensions as Json | undefined), [EXT]: {} } };
  }
}
