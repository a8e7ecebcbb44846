/** @module The Windows side of the watchdog: the parent process held by its handle (kernel32 through bun:ffi), since a Windows process id is reused once its process has ended. */

/** What the watchdog reads of a process on Windows (kernel32; a stand-in in tests). */
export interface ProcessApi {
  /** A handle of the process that may wait on it and read its times; undefined when it cannot be opened. */
  open(pid: number): bigint | undefined;
  /** Whether the process has ended (WaitForSingleObject without waiting); undefined when the wait fails. */
  ended(handle: bigint): boolean | undefined;
  /** When the process was created (FILETIME, 100 ns since 1601); `undefined` handle: this process. */
  createdAt(handle: bigint | undefined): bigint | undefined;
  close(handle: bigint): void;
}

/** How the parent stands when the watch begins. */
export type ParentAtStart = { readonly handle: bigint } | "gone" | "unknown";

/**
 * Opens the parent by id and checks it is the process that started this one: a process created after this one
 * holds a reused id, so the parent has ended already. Held open, the handle keeps its id from being reused.
 * @param api - kernel32, or a stand-in.
 * @param pid - the parent's id when this process started.
 * @returns its handle; "gone" when its id now names a younger process; "unknown" when it cannot be opened
 *   (ended, or not ours to open: a parent elevated above us) or its times cannot be read, so nothing is watched
 *   (stdin's end still stops the server).
 */
export function openParent(api: ProcessApi, pid: number): ParentAtStart {
  if (!(pid > 0)) return "unknown";
  const handle = api.open(pid);
  if (handle === undefined) return "unknown";
  const parentBorn = api.createdAt(handle);
  const selfBorn = api.createdAt(undefined);
  if (parentBorn === undefined || selfBorn === undefined) {
    api.close(handle);
    return "unknown";
  }
  if (parentBorn > selfBorn) {
    api.close(handle);
    return "gone";
  }
  return { handle };
}

/** True once the held parent has ended (a failed wait is not taken for an end). */
export function parentEnded(api: ProcessApi, handle: bigint): boolean {
  return api.ended(handle) === true;
}

const SYNCHRONIZE = 0x0010_0000;
const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
const WAIT_OBJECT_0 = 0;
const WAIT_TIMEOUT = 0x102;

/**
 * kernel32's OpenProcess, WaitForSingleObject, GetProcessTimes, GetCurrentProcess and CloseHandle through
 * bun:ffi (handles as 64-bit integers). Loaded on first use, on Windows only.
 * @throws Error when kernel32 cannot be loaded (not Windows).
 */
export function kernel32(): ProcessApi {
  const { dlopen, FFIType, ptr } = require("bun:ffi") as typeof import("bun:ffi");
  const { symbols: k } = dlopen("kernel32.dll", {
    OpenProcess: { args: [FFIType.u32, FFIType.i32, FFIType.u32], returns: FFIType.u64 },
    WaitForSingleObject: { args: [FFIType.u64, FFIType.u32], returns: FFIType.u32 },
    GetProcessTimes: {
      args: [FFIType.u64, FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.ptr],
      returns: FFIType.i32,
    },
    GetCurrentProcess: { args: [], returns: FFIType.u64 },
    CloseHandle: { args: [FFIType.u64], returns: FFIType.i32 },
  });
  return {
    open(pid) {
      const h = BigInt(k.OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, 0, pid));
      return h === 0n ? undefined : h;
    },
    ended(handle) {
      const r = k.WaitForSingleObject(handle, 0);
      return r === WAIT_OBJECT_0 ? true : r === WAIT_TIMEOUT ? false : undefined;
    },
    createdAt(handle) {
      // FILETIME: two little-endian 32-bit halves, read as one 64-bit count.
      const times = new BigUint64Array(4);
      const at = (i: number) => ptr(times, i * 8);
      const ok = k.GetProcessTimes(handle ?? BigInt(k.GetCurrentProcess()), at(0), at(1), at(2), at(3));
      return ok === 0 ? undefined : times[0];
    },
    close(handle) {
      k.CloseHandle(handle);
    },
  };
}
