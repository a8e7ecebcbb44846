/** @module The collector slot serve() checks: lets `mcpbin list`/`call` take a script's options without serving. */
import type { ServerOptions } from "../server/options.ts";

/**
 * The global slot `serve()` checks first: when it holds a function, `serve(options)` calls it with
 * the options and returns what it returns (a promise that never settles, for `mcpbin list` and the
 * build's check: a collected server "runs" forever), without touching stdin or stdout. A `Symbol.for` key, so a
 * script importing another copy of mcpbin is collected too.
 */
export const COLLECT = Symbol.for("mcpbin.collect");

/** The collector `serve()` should call instead of serving, if one is installed. */
export function installedCollector(): ((options: ServerOptions) => void | Promise<void>) | undefined {
  const c = (globalThis as Record<symbol, unknown>)[COLLECT];
  return typeof c === "function" ? (c as (options: ServerOptions) => void | Promise<void>) : undefined;
}
