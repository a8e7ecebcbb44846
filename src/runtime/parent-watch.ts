/** @module The watchdog of a stdio server: notices that the process that started it has died, even while something else holds its stdin open. */

import { kernel32, openParent, parentEnded, type ParentAtStart, type ProcessApi } from "./parent-windows.ts";

/** The parent when this module was loaded (at start-up): a parent that dies before serving begins is seen too. */
const STARTED_BY = process.ppid;

/**
 * Calls `onGone` once when this process's parent has died. POSIX: the parent process id changed, as the process
 * was re-parented to init or a subreaper (not when the parent is already init, pid 1, where no change can be seen).
 * Windows, where ids are reused: the parent is opened by its handle ({@link openParent}: one created after this
 * process holds a reused id, so the parent has ended already) and the handle is asked whether it has ended; a parent
 * that cannot be opened is not watched.
 * The check runs every `everyMs` on an unreferenced timer: it never keeps the process alive.
 * @param onGone - called once, with the pid of the parent that died.
 * @param everyMs - how often to look, ms (default 250, so a death is seen within a quarter second).
 * @param win - kernel32, on Windows (a stand-in in tests); default loaded there on first use.
 * @returns a function that stops watching.
 */
export function watchParent(
  onGone: (parent: number) => void,
  everyMs = 250,
  win: (() => ProcessApi) | undefined = process.platform === "win32" ? kernel32 : undefined,
): () => void {
  const parent = STARTED_BY;
  if (win) return watchByHandle(win, parent, onGone, everyMs);
  if (!(parent > 1)) return () => {};
  return poll(
    () => process.ppid !== parent,
    () => onGone(parent),
    everyMs,
  );
}

/** The Windows watch: the parent's handle, held until the watch stops. */
function watchByHandle(win: () => ProcessApi, parent: number, onGone: (p: number) => void, everyMs: number) {
  let api: ProcessApi;
  let start: ParentAtStart;
  try {
    api = win();
    start = openParent(api, parent);
  } catch {
    return () => {};
  }
  if (start === "unknown") return () => {};
  if (start === "gone") {
    onGone(parent);
    return () => {};
  }
  const { handle } = start;
  let closed = false;
  const close = () => {
    if (!closed) api.close(handle);
    closed = true;
  };
  const stop = poll(
    () => parentEnded(api, handle),
    () => (close(), onGone(parent)),
    everyMs,
  );
  return () => (stop(), close());
}

/** Runs `gone` once `ended` says so: checked now, then every `everyMs` on an unreferenced timer. */
function poll(ended: () => boolean, gone: () => void, everyMs: number): () => void {
  const check = () => {
    if (!ended()) return false;
    clearInterval(timer);
    gone();
    return true;
  };
  const timer = setInterval(check, everyMs);
  if (check()) return () => {};
  timer.unref?.();
  return () => clearInterval(timer);
}
