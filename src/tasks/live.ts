/** @module LiveRun: one task running in this process — its asks waiting for answers (input_required), its cancel, its end — kept in step with the store. */
import { checkAnswer, type AskKind } from "../ask/answers.ts";
import { AskError } from "../ask/errors.ts";
import { notificationLine } from "../protocol/jsonrpc.ts";
import type { Connection, RequestContext } from "../server/context.ts";
import { settle, type LiveRun as RunHandle, type TaskEngine } from "./engine.ts";
import { legacyTask, RELATED_TASK, type TaskRecord } from "./record.ts";

interface PendingAsk {
  readonly kind: AskKind;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (e: unknown) => void;
  /** 2025-11-25: sent to the client already (through a tasks/result request). */
  sent: boolean;
}

/** How a run ended: the tool's result, or the JSON-RPC error the call failed with. */
export type Outcome =
  | { readonly result: Record<string, unknown>; readonly isError: boolean }
  | { readonly error: { code: number; message: string; data?: unknown } };

/** One task running in this process. */
export class LiveRun implements RunHandle {
  readonly #pending = new Map<string, PendingAsk>();
  readonly #keys = new Set<string>();
  #count = 0;
  /** 2025-11-25 tasks/result requests waiting on this task (asks go to the client through them). */
  readonly #waiters = new Set<RequestContext>();
  #settled = false;
  readonly #ended: Promise<void>;
  #end!: () => void;

  /**
   * @param engine - the server's tasks.
   * @param owner - the task's owner.
   * @param record - the task as created.
   * @param ctx - the context the tool runs with (its signal is the task's).
   * @param connection - 2025-11-25: where status notifications go.
   */
  constructor(
    readonly engine: TaskEngine,
    readonly owner: string,
    public record: TaskRecord,
    readonly ctx: RequestContext,
    readonly connection: Connection | undefined,
  ) {
    this.#ended = new Promise((resolve) => (this.#end = resolve));
    engine.watch(this, owner);
  }

  get id(): string {
    return this.record.id;
  }

  /** Resolves once the task has reached a terminal status (stored). */
  get ended(): Promise<void> {
    return this.#ended;
  }

  /**
   * One ask of the tool: the task moves to input_required with the request under `key` (unique over the
   * task's life) and the promise waits for its answer (tasks/update, or the client's response to the
   * request sent through tasks/result).
   * @returns the client's answer, its shape checked (AskError `invalid-answer` otherwise).
   */
  ask(kind: AskKind, key: string | undefined, method: string, params: Record<string, unknown>): Promise<unknown> {
    const n = ++this.#count;
    const k = key ?? `${kind}_${n}`;
    if (this.#keys.has(k))
      return Promise.reject(
        new AskError("bad-request", `the ask key "${k}" is used twice in one task; give each ask its own key`),
      );
    this.#keys.add(k);
    if (this.#settled) return new Promise(() => {});
    return new Promise((resolve, reject) => {
      this.#pending.set(k, { kind, method, params, resolve, reject, sent: false });
      // input_required is stored before the request goes out through a waiting tasks/result.
      void this.#store().then(() => {
        for (const w of this.#waiters) this.#flush(w);
      });
    });
  }

  /**
   * Delivers the answer to one outstanding request; a key that is not outstanding is ignored (MCP 2026-07-28
   * tasks extension: unknown or already answered keys). An answer of the wrong shape fails that ask.
   * @returns resolves once the task's new status is stored.
   */
  answer(key: string, value: unknown): Promise<void> {
    const p = this.#pending.get(key);
    if (!p) return Promise.resolve();
    this.#pending.delete(key);
    const checked = checkAnswer(p.kind, value);
    if (checked.ok) p.resolve(checked.value);
    else p.reject(new AskError("invalid-answer", `the client's answer to ${p.method} ${checked.error}`));
    return this.#store();
  }

  /** Aborts the tool's signal (tasks/cancel); the record is already cancelled. */
  cancel(reason: string): void {
    this.record.status = "cancelled";
    this.record.lastUpdatedAt = Date.now();
    this.engine.emit(this.record);
    this.ctx.abort(new Error(reason));
    this.#release();
  }

  /**
   * Ends the task with the run's outcome, unless it was cancelled meanwhile (it stays cancelled).
   * 2025-11-25: a tool result with isError fails the task (basic/utilities/tasks); 2026-07-28: completed.
   */
  async finish(outcome: Outcome): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    const r = await this.engine.update(this.owner, this.id, (r) => {
      if ("error" in outcome) {
        settle(r, "failed", outcome.error.message);
        r.error = outcome.error;
      } else {
        const failed = outcome.isError && r.era === "legacy";
        settle(r, failed ? "failed" : "completed", failed ? "The tool reported an error (isError)" : undefined);
        r.result = outcome.result;
      }
    });
    if (r) this.record = r;
    this.#notify();
    this.#release();
  }

  /** 2025-11-25: a tasks/result request waiting on this task; unsent asks go to the client through it. */
  addWaiter(ctx: RequestContext): void {
    this.#waiters.add(ctx);
    this.#flush(ctx);
  }

  removeWaiter(ctx: RequestContext): void {
    this.#waiters.delete(ctx);
  }

  /** Takes a cancel or answers another process wrote to the store (a shared store only). */
  async sync(): Promise<void> {
    if (this.#settled) return;
    const r = await this.engine.read(this.owner, this.id);
    if (!r || r.status === "cancelled") {
      this.#settled = true;
      this.cancel("cancelled: the task was cancelled (tasks/cancel)");
      return;
    }
    if (r.answers && Object.keys(r.answers).length > 0) {
      const answers = r.answers;
      await this.engine.update(this.owner, this.id, (x) => void delete x.answers);
      for (const [k, v] of Object.entries(answers)) await this.answer(k, v);
    }
  }

  /** Stores the status the outstanding asks give: input_required with them, else working. */
  async #store(): Promise<void> {
    if (this.#settled) return;
    const inputRequests = Object.fromEntries(
      [...this.#pending].map(([k, p]) => [k, { method: p.method, params: p.params }]),
    );
    const waiting = this.#pending.size > 0;
    const r = await this.engine.update(this.owner, this.id, (r) => {
      if (!waiting && r.status === "working") return false;
      settle(r, waiting ? "input_required" : "working", waiting ? "Waiting for the client's input" : undefined);
      if (waiting) r.inputRequests = inputRequests;
    });
    if (r) this.record = r;
    this.#notify();
  }

  /** 2025-11-25: sends each unsent ask to the client as a request through a waiting tasks/result. */
  #flush(waiter: RequestContext): void {
    if (this.record.era !== "legacy") return;
    for (const [key, p] of this.#pending) {
      if (p.sent) continue;
      p.sent = true;
      const params = {
        ...p.params,
        _meta: { ...(p.params._meta as object | undefined), [RELATED_TASK]: { taskId: this.id } },
      };
      waiter.request(p.method, params, { timeoutMs: 0 }).then(
        (answer) => void this.answer(key, answer),
        (e: unknown) => {
          if (this.#pending.get(key) !== p) return;
          // The client answered with an error: the ask fails as in a plain call (AskError client-error).
          if ((e as { code?: unknown })?.code === "rpc") {
            this.#pending.delete(key);
            p.reject(
              new AskError("client-error", `the client answered ${p.method} with an error: ${(e as Error).message}`),
            );
            void this.#store();
            return;
          }
          // The tasks/result request ended first (cancelled, closed): send again through the next one.
          p.sent = false;
        },
      );
    }
  }

  /** 2025-11-25: notifications/tasks/status on the creating connection (no related-task _meta: the id is in the params). */
  #notify(): void {
    this.engine.emit(this.record);
    if (this.record.era !== "legacy" || !this.connection) return;
    try {
      this.connection.send(notificationLine("notifications/tasks/status", legacyTask(this.record)), undefined);
    } catch {
      // The connection is gone: the client polls.
    }
  }

  #release(): void {
    this.#settled = true;
    for (const p of this.#pending.values()) p.reject(new AskError("cancelled", "the task ended"));
    this.#pending.clear();
    this.engine.unwatch(this.id);
    this.#end();
  }
}
