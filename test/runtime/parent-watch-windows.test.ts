// The Windows watchdog's decisions (issue 32), run here against a stand-in for kernel32: the parent is held by its
// handle and asked whether it has ended, since a Windows process id is reused. A parent whose id now names a process
// younger than this one has already ended; a parent that cannot be opened (or read) is not watched, rather than
// taken for dead. kernel32 itself runs only on Windows, which this machine is not (docs/security.md says so).
import { expect, test } from "bun:test";
import { watchParent } from "../../src/runtime/parent-watch.ts";
import { kernel32, openParent, type ProcessApi } from "../../src/runtime/parent-windows.ts";

/** A stand-in for kernel32: one parent (handle 7n) created at `parentBorn`, this process at 1000n. */
function fakeKernel(o: { parentBorn?: bigint; opens?: boolean; readable?: boolean } = {}) {
  const state = { ended: false as boolean | undefined, closed: [] as bigint[], opened: [] as number[] };
  const api: ProcessApi = {
    open: (pid) => (state.opened.push(pid), o.opens === false ? undefined : 7n),
    ended: () => state.ended,
    createdAt: (h) => (o.readable === false ? undefined : h === undefined ? 1000n : (o.parentBorn ?? 500n)),
    close: (h) => void state.closed.push(h),
  };
  return { api, state };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("windows watchdog: the parent that started this process is held by its handle", () => {
  const { api, state } = fakeKernel();
  expect(openParent(api, 4242)).toEqual({ handle: 7n });
  expect(state.opened).toEqual([4242]);
  expect(state.closed).toEqual([]);
});

test("windows watchdog: a reused parent id (a process younger than this one) means the parent has ended", () => {
  const { api, state } = fakeKernel({ parentBorn: 2000n });
  expect(openParent(api, 4242)).toBe("gone");
  expect(state.closed).toEqual([7n]);
});

test("windows watchdog: a parent that cannot be opened or read is not watched, never taken for dead", () => {
  expect(openParent(fakeKernel({ opens: false }).api, 4242)).toBe("unknown");
  const unreadable = fakeKernel({ readable: false });
  expect(openParent(unreadable.api, 4242)).toBe("unknown");
  expect(unreadable.state.closed).toEqual([7n]);
  expect(openParent(fakeKernel().api, 0)).toBe("unknown");
});

test("windows watchdog: the server hears once when its parent's handle says it ended, and the handle is closed", async () => {
  const { api, state } = fakeKernel();
  const gone: number[] = [];
  const stop = watchParent(
    (p) => gone.push(p),
    10,
    () => api,
  );
  await tick(40);
  expect(gone).toEqual([]);
  state.ended = undefined; // a failed wait is not an end
  await tick(40);
  expect(gone).toEqual([]);
  state.ended = true;
  await tick(40);
  expect(gone).toEqual([process.ppid]);
  expect(state.closed).toEqual([7n]);
  await tick(40);
  expect(gone).toHaveLength(1);
  stop();
  expect(state.closed).toEqual([7n]);
});

test("windows watchdog: stopping the watch closes the handle; a reused id is reported at once", () => {
  const alive = fakeKernel();
  const stop = watchParent(
    () => {},
    10,
    () => alive.api,
  );
  stop();
  expect(alive.state.closed).toEqual([7n]);

  const reused = fakeKernel({ parentBorn: 2000n });
  const gone: number[] = [];
  watchParent(
    (p) => gone.push(p),
    10,
    () => reused.api,
  );
  expect(gone).toEqual([process.ppid]);
});

test("windows watchdog: kernel32 that cannot be loaded leaves the server unwatched (this machine is not Windows)", () => {
  expect(() => kernel32()).toThrow();
  const gone: number[] = [];
  const stop = watchParent((p) => gone.push(p), 10, kernel32);
  stop();
  expect(gone).toEqual([]);
});
