/** @module The collector slot serve() checks: lets `mcpbin list`/`call` take a script's options without serving. */
import { contract } from "./contract.ts";

/**
 * The collector `serve()` checks first, if one is installed (`collect` of the build contract,
 * src/runtime/contract.ts): `serve(options)` then calls it with the options and returns what it returns
 * (a promise that never settles, for `mcpbin list` and the build's check: a collected server "runs"
 * forever), without touching stdin or stdout. A script importing another copy of mcpbin is collected too.
 * @typeParam O - the options' type (serve()'s ServerOptions; the runtime names no layer above it).
 * @returns the collector, or undefined.
 */
export function installedCollector<O extends object>(): ((options: O) => void | Promise<void>) | undefined {
  const c = contract().collect;
  return typeof c === "function" ? (c as (options: O) => void | Promise<void>) : undefined;
}

/**
 * Installs a collector for `serve()` (see {@link installedCollector}).
 * @param collect - called with the options serve() was given; undefined removes it.
 */
export function installCollector<O extends object>(collect: ((options: O) => void | Promise<void>) | undefined): void {
  const c = contract();
  if (collect) c.collect = collect as (options: object) => void | Promise<void>;
  else delete c.collect;
}
