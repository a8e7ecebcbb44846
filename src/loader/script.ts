/** @module Collecting a script's tools without serving: serve() hands its options to a collector instead of reading stdin. */
import { resolve } from "node:path";
import { existsSync } from "node:fs";
import { displayPath, firstLine } from "../config/load.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import { LoaderError } from "./collect.ts";
import { installCollector } from "../runtime/collector.ts";
import { runAsMain } from "./main-module.ts";

/**
 * Imports a script-style entry (one that ends with `serve()`) and returns the options it passed to
 * `serve()`, without serving. Collected, `serve()` never settles, as a real server's does not until
 * stdin closes: code after `await serve()` (a `process.exit`, clean-up) does not run here either. While
 * it loads, `process.argv` holds only the runtime and the script, as if run with no arguments, and the
 * script's `import.meta.main` is true (src/loader/main-module.ts), as if it had been started itself.
 * @param entry - the script.
 * @param fresh - a reload number (mcpbin dev --watch): the entry is imported as a new module instance.
 * @returns the options of its (first) `serve()` call.
 * @throws LoaderError when the script is missing, fails to import, or never calls `serve()`.
 */
export async function collectScript(entry: string, fresh?: number): Promise<ServerOptions> {
  const file = resolve(entry);
  const label = displayPath(file);
  if (!existsSync(file)) throw new LoaderError(`${label}: entry not found`);
  let got: ServerOptions | undefined;
  let collected!: () => void;
  const served = new Promise<void>((r) => (collected = r));
  installCollector((options: ServerOptions) => {
    got ??= options;
    collected();
    return new Promise<never>(() => {});
  });
  runAsMain(file);
  try {
    // The script sees the arguments it would see run alone with no arguments, not the CLI's (`list --json`).
    // `fresh` (mcpbin dev --watch): a new instance of the entry (the first one never finishes evaluating: its serve() was collected).
    await asIfAlone(file, () =>
      Promise.race([import(fresh === undefined ? file : `${file}?mcpbin-reload=${fresh}`), served]),
    );
  } catch (e) {
    throw new LoaderError(`${label} failed to load: ${firstLine(e)}`);
  } finally {
    installCollector(undefined);
  }
  if (!got)
    throw new LoaderError(
      `${label} did not call serve() while loading; pass a script that ends with serve({...}), or a config with --config`,
    );
  return got;
}

/**
 * Runs `f` with `process.argv` as the loaded code would see it run alone: the runtime and the file,
 * none of the CLI's arguments.
 * @param file - the script (or config) path the code would have been started with.
 */
export async function asIfAlone<T>(file: string, f: () => Promise<T>): Promise<T> {
  const argv = process.argv;
  process.argv = [argv[0]!, file];
  try {
    return await f();
  } finally {
    process.argv = argv;
  }
}
