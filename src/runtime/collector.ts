/** @module The collector slot serve() checks: lets `mcpbin list`/`call` take a script's options without serving. */
import { contract } from "./contract.ts";
import type { ServerOptions } from "../server/options.ts";

/**
 * The collector `serve()` checks first, if one is installed (`collect` of the build contract,
 * src/runtime/contract.ts): `serve(options)` then calls it with the options and returns what it returns
 * (a promise that never settles, for `mcpbin list` and the build's check: a collected server "runs"
 * forever), without touching stdin or stdout. A script importing another copy of mcpbin is collected too.
 * @returns the collector, or undefined.
 */
export function installedCollector(): ((options: ServerOptions) => void | Promise<void>) | undefined {
  const c = contract().collect;
  return typeof c === "function" ? (c as (options: ServerOptions) => void | Promise<void>) : undefined;
}

/**
 * Installs a collector for `serve()` (see {@link installedCollector}).
 * @param collect - called with the options serve() was given; undefined removes it.
 */
export function installCollector(collect: ((options: ServerOptions) => void | Promise<void>) | undefined): void {
  const c = contract();
  if (collect) c.collect = collect as (options: object) => void | Promise<void>;
  else delete c.collect;
}
