/** @module Collecting a script's tools without serving: serve() hands its options to a collector instead of reading stdin. */
import { resolve } from "node:path";
import { existsSync } from "node:fs";
import { displayPath, firstLine } from "../config/load.ts";
import type { ServerOptions } from "../server/options.ts";
import { LoaderError } from "./collect.ts";
import { COLLECT } from "./collector.ts";

/**
 * Imports a script-style entry (one that ends with `serve()`) and returns the options it passed to
 * `serve()`, without serving.
 * @param entry - the script.
 * @returns the options of its (first) `serve()` call.
 * @throws LoaderError when the script is missing, fails to import, or never calls `serve()`.
 */
export async function collectScript(entry: string): Promise<ServerOptions> {
  const file = resolve(entry);
  const label = displayPath(file);
  if (!existsSync(file)) throw new LoaderError(`${label}: entry not found`);
  let got: ServerOptions | undefined;
  const g = globalThis as Record<symbol, unknown>;
  g[COLLECT] = (options: ServerOptions) => {
    got ??= options;
  };
  try {
    await import(file);
  } catch (e) {
    throw new LoaderError(`${label} failed to load: ${firstLine(e)}`);
  } finally {
    delete g[COLLECT];
  }
  if (!got) throw new LoaderError(`${label} did not call serve() while loading; pass a script that ends with serve({...}), or a config with --config`);
  return got;
}
