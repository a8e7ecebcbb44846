/** @module Keeps stdout for protocol lines: moves fd 1 to stderr and hands back a private descriptor for the writer. */
import { contract, type StdoutGuard } from "./contract.ts";

export type { StdoutGuard };

/**
 * Installs the guard once per process. On Linux and macOS it duplicates fd 1 with `dup` and points
 * fd 1 at stderr with `dup2` (via bun:ffi, libc). Where that is not possible (Windows, no FFI) it
 * patches `console.*`, `process.stdout.write` and `Bun.write(Bun.stdout, …)` to go to stderr;
 * native code writing to fd 1 directly is then not covered.
 * @returns the descriptor to write protocol lines to.
 */
export function guardStdout(): StdoutGuard {
  // Kept in the build contract, so two copies of this module (a linked mcpbin) still install the guard once.
  const c = contract();
  if (c.stdoutGuard) return c.stdoutGuard;
  if (process.env.MCPBIN_STDOUT_GUARD !== "patch") {
    const fd = tryDup();
    if (fd !== undefined) return (c.stdoutGuard = { fd, mode: "fd" });
  }
  patch();
  return (c.stdoutGuard = { fd: 1, mode: "patch" });
}

/** libc's isatty, bound with dup/dup2 when the guard loaded them. */
let isattyOf: ((fd: number) => number) | undefined;

/**
 * Whether stdin is a terminal (a person started the server by hand). Asks libc's `isatty(0)` through the
 * library the guard already loaded: reading `process.stdin.isTTY` builds Node's stdin stream, which
 * costs a start-up ~15 M instructions (docs/benchmarks.md). Without the fd guard it falls back to that.
 */
export function stdinIsTerminal(): boolean {
  if (isattyOf !== undefined) return isattyOf(0) === 1;
  return process.stdin.isTTY === true;
}

function tryDup(): number | undefined {
  if (process.platform !== "linux" && process.platform !== "darwin") return undefined;
  try {
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
      dup: { args: [FFIType.i32], returns: FFIType.i32 },
      dup2: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      isatty: { args: [FFIType.i32], returns: FFIType.i32 },
    });
    isattyOf = lib.symbols.isatty;
    const saved = lib.symbols.dup(1);
    if (saved < 0) return undefined;
    if (lib.symbols.dup2(2, 1) < 0) return undefined;
    return saved;
  } catch {
    return undefined;
  }
}

function patch(): void {
  const err = (...args: unknown[]) => console.error(...args);
  for (const k of ["log", "info", "debug", "trace", "dir", "table"] as const) {
    (console as unknown as Record<string, unknown>)[k] =
      k === "trace" ? (...a: unknown[]) => console.error(new Error(a.map(String).join(" ")).stack) : err;
  }
  const toStderr = process.stderr.write.bind(process.stderr);
  (process.stdout as unknown as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) =>
    toStderr(chunk as string, ...(rest as []));
  const bunWrite = Bun.write;
  try {
    (Bun as unknown as { write: unknown }).write = (dest: unknown, ...rest: unknown[]) =>
      (bunWrite as (...a: unknown[]) => Promise<number>)(dest === Bun.stdout ? Bun.stderr : dest, ...rest);
  } catch {
    // Bun.write is read-only on this build; documented as uncovered.
  }
}
