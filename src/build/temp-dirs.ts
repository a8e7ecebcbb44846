/** @module The temporary directories and child processes of a build, removed and ended even when the build is interrupted (SIGINT, SIGTERM, SIGHUP). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs = new Set<string>();
const children = new Set<{ kill(signal?: number | NodeJS.Signals): void }>();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const CODES: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * A signal while something is registered: kill the children, remove the directories, exit 128+n. With
 * nothing registered, another listener (`mcpbin dev` forwarding to its server, `preview`) handles it;
 * when there is none, the process ends as it would without a listener.
 */
function onSignal(signal: (typeof SIGNALS)[number]): void {
  if (dirs.size + children.size === 0) {
    if (process.listenerCount(signal) > 1) return;
    process.exit(CODES[signal]);
  }
  for (const c of children) {
    try {
      c.kill("SIGKILL");
    } catch {}
  }
  cleanup();
  process.stderr.write(`mcpbin: interrupted (${signal}); temporary files removed\n`);
  process.exit(CODES[signal]);
}

// Listening from the start, not from the first directory: Bun installs a signal handler asynchronously, so
// one added next to a mkdtemp could miss a signal that follows it at once.
for (const s of SIGNALS) process.on(s, () => onSignal(s));

function cleanup(): void {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs.clear();
}

/**
 * Makes a temporary directory that an interrupted build removes (and so does process exit).
 * @param prefix - the directory name's start, e.g. `mcpbin-check-`.
 * @param parent - where to make it; default the system's temporary directory (TMPDIR).
 * @returns its absolute path.
 */
export function tempDir(prefix: string, parent: string = tmpdir()): string {
  const dir = mkdtempSync(join(parent, prefix));
  dirs.add(dir);
  return dir;
}

/**
 * Removes a directory made by {@link tempDir} (a no-op when it is gone already).
 * @param dir - its path.
 */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

/**
 * Leaves a directory made by {@link tempDir} to its caller from now on (a long-lived one, such as the
 * entry `mcpbin dev` runs, whose command forwards signals to its child and removes it afterwards).
 * @param dir - its path.
 */
export function keepTempDir(dir: string): void {
  dirs.delete(dir);
}

/**
 * Ends a child process of the build with it when the build is interrupted, until it exits.
 * @param child - a spawned process (`Bun.spawn`).
 */
export function trackChild(child: {
  kill(signal?: number | NodeJS.Signals): void;
  readonly exited: Promise<number>;
}): void {
  children.add(child);
  void child.exited.finally(() => children.delete(child));
}

process.on("exit", cleanup);
