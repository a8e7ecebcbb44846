/** @module Whether this process is a compiled executable: the runtime's one test of it. */

/**
 * True when this process is a compiled executable (`bun build --compile`, as `mcpbin build` makes):
 * its main module lives in Bun's embedded file system (`/$bunfs/…`, on Windows `B:/~BUN/…`).
 * @returns whether the process runs from a compiled executable.
 */
export function isCompiledExecutable(): boolean {
  const main = typeof Bun !== "undefined" ? Bun.main : "";
  return main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(main);
}
