/** @module The watchdog of a stdio server: notices that the process that started it has died, even while something else holds its stdin open. */

/** The parent when this module was loaded (at start-up): a parent that dies before serving begins is seen too. */
const STARTED_BY = process.ppid;

/**
 * Calls `onGone` once when this process's parent has died (POSIX: the parent process id changed, as the
 * process was re-parented to init or a subreaper). Not on Windows, where ids are reused and the parent's
 * handle would be needed; not when the parent is already init (pid 1), where no change can be seen.
 * The check runs every `everyMs` on an unreferenced timer: it never keeps the process alive.
 * @param onGone - called once, with the pid of the parent that died.
 * @param everyMs - how often to look, ms (default 250, so a death is seen within a quarter second).
 * @returns a function that stops watching.
 */
export function watchParent(onGone: (parent: number) => void, everyMs = 250): () => void {
  if (process.platform === "win32") return () => {};
  const parent = STARTED_BY;
  if (!(parent > 1)) return () => {};
  const check = () => {
    if (process.ppid === parent) return false;
    clearInterval(timer);
    onGone(parent);
    return true;
  };
  const timer = setInterval(check, everyMs);
  if (check()) return () => {};
  timer.unref?.();
  return () => clearInterval(timer);
}
