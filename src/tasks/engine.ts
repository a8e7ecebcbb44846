/** @module TaskEngine: the tasks of one server in its Store — creation before the reply, reads that report a dead runner's task failed, owner-scoped keys, times to live — and the runs alive in this process. */
import type { Store } from "../shared/store.ts";
import { TERMINAL, type TaskRecord, type TaskStatus } from "./record.ts";
import type { RequestContext } from "../server/context.ts";

/** The resolved `tasks` option. */
export interface TasksConfig {
  readonly store: Store;
  /** Whether the store is this process's own memory (no other process can run or read its tasks). */
  readonly local: boolean;
  readonly ttlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly prefix: string;
  /** How many tasks one owner may have running in this process at once. */
  readonly maxRunning: number;
}

/** A task running in this process, as the engine and the methods see it (src/tasks/live.ts LiveRun). */
export interface LiveRun {
  readonly id: string;
  /** Resolves once the run has ended. */
  readonly ended: Promise<void>;
  /** Takes a cancel or answers another process wrote to the store. */
  sync(): Promise<void>;
  /** Aborts the tool's signal. */
  cancel(reason: string): void;
  /** Delivers the answer to one outstanding request (ignored when the key is not outstanding). */
  answer(key: string, value: unknown): Promise<void>;
  /** 2025-11-25: a tasks/result request waiting on the task, and its end. */
  addWaiter(ctx: RequestContext): void;
  removeWaiter(ctx: RequestContext): void;
}

/** How long a runner's heartbeat lives, and how often it is renewed (ms). */
const HEARTBEAT_TTL_MS = 15_000;
const HEARTBEAT_EVERY_MS = 5_000;
/** How often a run in this process looks in a shared store for a cancel or answers from another process (ms). */
const WATCH_EVERY_MS = 250;

/** What a dead runner's task says. */
export const RUNNER_DIED =
  "The server process running this task ended before the task finished (it was restarted or crashed)";

const nodeOs = (): typeof import("node:os") => require("node:os") as typeof import("node:os");

/**
 * The tasks of one server. Keys are `<prefix><owner hash>:<task id>`: a task of another owner is not found
 * (MCP 2025-11-25 basic/utilities/tasks "Task Isolation and Access Control"), and listing reads one owner's keys.
 */
export class TaskEngine {
  /** This process's runner id. */
  readonly runner = randomId();
  /** The runs alive in this process, by task id. */
  readonly live = new Map<string, LiveRun>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  readonly #chains = new Map<string, Promise<void>>();
  readonly #running = new Map<string, number>();
  readonly #listeners = new Map<string, Set<(r: TaskRecord) => void>>();
  readonly #owners = new Map<string, string>();
  #watch: ReturnType<typeof setInterval> | undefined;

  constructor(readonly config: TasksConfig) {}

  /** The store key of a task. */
  key(owner: string, id: string): string {
    return `${this.config.prefix}${ownerHash(owner)}:${id}`;
  }

  /**
   * Creates a task and stores it before returning (MCP 2026-07-28 tasks extension: a CreateTaskResult only
   * once `tasks/get` would find the task).
   * @param owner - who may see it.
   * @param era - the era of the creating call.
   * @param tool - the tool's name.
   * @param ttlMs - the client's requested time to live (2025-11-25 `task.ttl`), capped by `maxTtlMs`.
   */
  async create(owner: string, era: "legacy" | "modern", tool: string, ttlMs?: number): Promise<TaskRecord> {
    const c = this.config;
    const now = Date.now();
    const ttl =
      ttlMs !== undefined && Number.isFinite(ttlMs) && ttlMs > 0 ? Math.min(Math.round(ttlMs), c.maxTtlMs) : c.ttlMs;
    const r: TaskRecord = {
      id: randomId(),
      era,
      tool,
      runner: this.runner,
      createdAt: now,
      ttlMs: ttl,
      pollIntervalMs: c.pollIntervalMs,
      status: "working",
      lastUpdatedAt: now,
    };
    if (!c.local) this.#beat();
    await this.write(owner, r);
    return r;
  }

  /** Stores a task, kept until its time to live from creation ends. */
  async write(owner: string, r: TaskRecord): Promise<void> {
    const left = r.createdAt + r.ttlMs - Date.now();
    if (left <= 0) return this.config.store.delete(this.key(owner, r.id));
    await this.config.store.set(this.key(owner, r.id), JSON.stringify(r), { ttlMs: left });
  }

  /**
   * Reads a task. One left working or input_required by a runner that is gone (another process that ended) is
   * stored and returned as failed: never working forever.
   * @returns the task, or undefined (unknown, another owner's, or expired).
   */
  async read(owner: string, id: string): Promise<TaskRecord | undefined> {
    if (typeof id !== "string" || id.length === 0 || id.length > 64) return undefined;
    const text = await this.config.store.get(this.key(owner, id));
    if (text === undefined) return undefined;
    let r: TaskRecord;
    try {
      r = JSON.parse(text) as TaskRecord;
    } catch {
      return undefined;
    }
    if (!TERMINAL.has(r.status) && !(r.runner === this.runner ? this.live.has(r.id) : await this.#alive(r.runner))) {
      settle(r, "failed", RUNNER_DIED);
      r.error = { code: -32603, message: RUNNER_DIED };
      await this.write(owner, r);
    }
    return r;
  }

  /**
   * Changes a stored task unless it has reached a terminal status (a cancelled task stays cancelled).
   * @param change - edits the task; returns false to leave it as it is.
   * @returns the task after the change, or undefined when it is gone.
   */
  update(owner: string, id: string, change: (r: TaskRecord) => boolean | void): Promise<TaskRecord | undefined> {
    // One change at a time per task in this process (a run's end must not be overwritten by a late status write).
    const next = (this.#chains.get(id) ?? Promise.resolve()).then(() => this.#update(owner, id, change));
    const tail = next.then(
      () => {},
      () => {},
    );
    this.#chains.set(id, tail);
    void tail.then(() => this.#chains.get(id) === tail && this.#chains.delete(id));
    return next;
  }

  async #update(owner: string, id: string, change: (r: TaskRecord) => boolean | void): Promise<TaskRecord | undefined> {
    const r = await this.read(owner, id);
    if (r === undefined || TERMINAL.has(r.status)) return r;
    if (change(r) === false) return r;
    r.lastUpdatedAt = Date.now();
    await this.write(owner, r);
    return r;
  }

  /** One owner's tasks, oldest first (ties by id). */
  async list(owner: string): Promise<TaskRecord[]> {
    const prefix = `${this.config.prefix}${ownerHash(owner)}:`;
    const out: TaskRecord[] = [];
    for (const k of await this.config.store.keys(prefix)) {
      const r = await this.read(owner, k.slice(prefix.length));
      if (r) out.push(r);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  /**
   * Listens to one task's status changes made in this process (2026-07-28 `notifications/tasks` on a
   * subscriptions/listen stream).
   * @returns the end of the listening.
   */
  onStatus(id: string, listener: (r: TaskRecord) => void): () => void {
    let set = this.#listeners.get(id);
    if (!set) this.#listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(id) === set) this.#listeners.delete(id);
    };
  }

  /** Tells a task's listeners of its status (a copy each time). */
  emit(r: TaskRecord): void {
    const set = this.#listeners.get(r.id);
    if (!set) return;
    for (const l of [...set]) {
      try {
        l({ ...r });
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /** How many tasks an owner has running in this process. */
  running(owner: string): number {
    return this.#running.get(owner) ?? 0;
  }

  /**
   * Keeps a run's record in step with the store while it lives (a cancel or answers written by another process).
   * @param owner - its owner (counted against {@link TasksConfig.maxRunning} until {@link unwatch}).
   */
  watch(run: LiveRun, owner: string): void {
    this.live.set(run.id, run);
    this.#running.set(owner, this.running(owner) + 1);
    this.#owners.set(run.id, owner);
    if (this.config.local || this.#watch) return;
    this.#watch = setInterval(() => {
      if (this.live.size === 0) {
        clearInterval(this.#watch);
        this.#watch = undefined;
        return;
      }
      for (const run of this.live.values()) void run.sync().catch(() => {});
    }, WATCH_EVERY_MS);
    this.#watch.unref?.();
  }

  /** Stops watching a run (it has settled). */
  unwatch(id: string): void {
    if (!this.live.delete(id)) return;
    const owner = this.#owners.get(id)!;
    this.#owners.delete(id);
    const n = this.running(owner) - 1;
    if (n > 0) this.#running.set(owner, n);
    else this.#running.delete(owner);
  }

  /** This runner's heartbeat in a shared store: `{ pid, host }`, renewed while the process lives. */
  #beat(): void {
    if (this.#heartbeat) return;
    const key = `${this.config.prefix}runner:${this.runner}`;
    const value = JSON.stringify({ pid: process.pid, host: nodeOs().hostname() });
    const put = () => void this.config.store.set(key, value, { ttlMs: HEARTBEAT_TTL_MS }).catch(() => {});
    put();
    this.#heartbeat = setInterval(put, HEARTBEAT_EVERY_MS);
    this.#heartbeat.unref?.();
  }

  /** Whether another runner is alive: its heartbeat is there and, on this host, its process exists. */
  async #alive(runner: string): Promise<boolean> {
    if (this.config.local) return false;
    const text = await this.config.store.get(`${this.config.prefix}runner:${runner}`);
    if (text === undefined) return false;
    try {
      const { pid, host } = JSON.parse(text) as { pid: number; host: string };
      if (host !== nodeOs().hostname()) return true;
      if (pid === process.pid) return false;
      process.kill(pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException)?.code === "EPERM";
    }
  }

  /** Stops the timers and closes the store. */
  async close(): Promise<void> {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    if (this.#watch) clearInterval(this.#watch);
    await this.config.store.close?.();
  }
}

/** Moves a task to a status, with its message (none: the message is removed). */
export function settle(r: TaskRecord, status: TaskStatus, message?: string): void {
  r.status = status;
  if (message === undefined) delete r.statusMessage;
  else r.statusMessage = message;
  r.lastUpdatedAt = Date.now();
  if (status !== "input_required") delete r.inputRequests;
}

/** 128 random bits, base64url (MCP: task ids with enough entropy that they cannot be guessed). */
export function randomId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
}

/** An owner as a key part: a short hash, so that no owner text (a token, a session id) is stored in a key. */
function ownerHash(owner: string): string {
  return new Bun.CryptoHasher("sha256").update(owner).digest("base64url").slice(0, 22);
}
