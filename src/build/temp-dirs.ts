/** @module The temporary directories and child processes of a build, removed and ended even when the build is interrupted (SIGINT, SIGTERM, SIGHUP). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs = new Set<string>();
const children = new Set<{ kill(signal?: number | NodeJS.Signals): void }>();
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const CODES: Record<(typeof SIGNALS)[number], number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
let listening = false;

function onSignal(signal: (typeof SIGNALS)[number]): void {
  for (const c of children) {
    try {
      c.kill("SIGKILL");
    } catch {}
  }
  cleanup();
  process.stderr.write(`mcpbin: interrupted (${signal}); temporary files removed\n`);
  process.exit(CODES[signal]);
}
const handlers = Object.fromEntries(SIGNALS.map((s) => [s, () => onSignal(s)])) as Record<(typeof SIGNALS)[number], () => void>;

/** Listens for the signals while anything is registered, and stops once nothing is (so other commands keep their own handling). */
function update(): void {
  const want = dirs.size + children.size > 0;
  if (want === listening) return;
  listening = want;
  for (const s of SIGNALS) want ? process.on(s, handlers[s]) : process.off(s, handlers[s]);
}

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
  update();
  return dir;
}

/**
 * Removes a directory made by {@link tempDir} (a no-op when it is gone already).
 * @param dir - its path.
 */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
  update();
}

/**
 * Leaves a directory made by {@link tempDir} to its caller from now on (a long-lived one, such as the
 * entry `mcpbin dev` runs, whose command forwards signals to its child and removes it afterwards).
 * @param dir - its path.
 */
export function keepTempDir(dir: string): void {
  dirs.delete(dir);
  update();
}

/**
 * Ends a child process of the build with it when the build is interrupted, until it exits.
 * @param child - a spawned process (`Bun.spawn`).
 */
export function trackChild(child: { kill(signal?: number | NodeJS.Signals): void; readonly exited: Promise<number> }): void {
  children.add(child);
  update();
  void child.exited.finally(() => {
    children.delete(child);
    update();
  });
}

process.on("exit", cleanup);
