/** @module Worker sessions (`sessions.workers`): session processes the server starts from a module, calls spread over them, one restarted after a call of it timed out, all ended with the server. */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { randomBytes } from "node:crypto";
import type { Tool } from "../tools/types.ts";
import type { UpstreamTool } from "../client/client.ts";
import { sessionTools, type Connected } from "./forward.ts";
import { DIR_ENV } from "./dir.ts";
import { WORKER_ENV } from "./session.ts";

import type { WorkersOptions } from "./options.ts";

/** A server's worker pool. */
export interface Workers {
  /** Marks the pool's sessions in the directory (other servers leave them alone). */
  readonly tag: string;
  /** The pool's tools (those of the first worker that joined), calls going to the least busy worker. */
  tools(reserved: ReadonlySet<string>, keep: (d: UpstreamTool) => boolean): Tool[];
  /** A worker's session connected. */
  joined(s: Connected): void;
  /** A worker's session went away (it is started again unless the pool is closing). */
  left(s: Connected): void;
  /** Ends every worker. */
  close(): Promise<void>;
}

/** Restarts within this many ms of a start count as a crash loop. */
const QUICK_EXIT_MS = 2_000;
const MAX_QUICK_EXITS = 5;

/**
 * Starts the pool: `max` processes running `module` with the session directory and the pool's tag in their
 * environment, stdin a pipe (a worker's session ends when it closes, so the workers end with this server
 * even when it is killed). Runs Bun: this executable itself (`BUN_BE_BUN=1`) when compiled, else the running Bun.
 * @param o - module and max.
 * @param dir - the session directory.
 * @param timeoutMs - the per-call timeout (a timed-out call restarts its worker).
 * @param log - one line on stderr.
 * @param changed - called when the pool's tools change (a first worker joined, the last left).
 * @returns the pool.
 */
export function startWorkers(
  o: WorkersOptions,
  dir: string,
  timeoutMs: number,
  log: (text: string) => void,
  changed: () => void = () => {},
): Workers {
  const tag = randomBytes(6).toString("hex");
  const module = resolve(o.module);
  const max = o.max ?? 1;
  const procs = new Set<ChildProcess>();
  const joined = new Map<number, Connected>();
  let defs: readonly UpstreamTool[] | undefined;
  let closing = false;
  let quick = 0;

  const start = (): void => {
    if (closing) return;
    const compiled = !process.execPath.split(/[\\/]/).pop()!.startsWith("bun");
    const child = spawn(process.execPath, [module], {
      stdio: ["pipe", "ignore", "inherit"],
      env: { ...process.env, [DIR_ENV]: dir, [WORKER_ENV]: tag, ...(compiled ? { BUN_BE_BUN: "1" } : {}) },
    });
    const began = Date.now();
    procs.add(child);
    child.on("error", (e) => log(`worker ${module} could not start: ${e.message}`));
    child.on("exit", (code, signal) => {
      procs.delete(child);
      if (closing) return;
      if (Date.now() - began < QUICK_EXIT_MS && ++quick >= MAX_QUICK_EXITS)
        return log(`worker ${module} keeps ending at once (last: ${signal ?? `exit code ${code}`}); not started again`);
      setTimeout(start, 100).unref();
    });
  };
  for (let i = 0; i < max; i++) start();

  const kill = (pid: number) => {
    for (const p of procs) if (p.pid === pid) p.kill("SIGKILL");
  };
  const onExit = () => {
    for (const p of procs) p.kill("SIGKILL");
  };
  process.on("exit", onExit);

  const pick = (): Connected | undefined => {
    let best: Connected | undefined;
    for (const s of joined.values())
      if (!best || s.gate.running + s.gate.waiting < best.gate.running + best.gate.waiting) best = s;
    return best;
  };

  return {
    tag,
    tools: (reserved, keep) =>
      defs
        ? sessionTools(defs, "worker", pick, reserved, timeoutMs, keep, (s) => {
            log(`worker ${s.info.id} did not answer within ${timeoutMs} ms; it is restarted`);
            kill(s.info.pid);
          })
        : [],
    joined(s) {
      joined.set(s.info.pid, s);
      if (defs === undefined) {
        defs = s.defs;
        changed();
      }
    },
    left(s) {
      joined.delete(s.info.pid);
      kill(s.info.pid);
    },
    async close() {
      closing = true;
      process.off("exit", onExit);
      const ends = [...procs].map(
        (p) =>
          new Promise<void>((r) => {
            p.once("exit", () => r());
            p.stdin?.end();
            p.kill("SIGTERM");
            setTimeout(() => (p.kill("SIGKILL"), r()), 2_000).unref();
          }),
      );
      await Promise.all(ends);
    },
  };
}
