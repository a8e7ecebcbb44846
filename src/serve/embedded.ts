/** @module The run-time half of a compiled project: the generated entry hands its statically imported modules here. */
import { checkConfig } from "../config/schema.ts";
import { serve } from "./serve.ts";
import type { LoadedModule } from "../loader/collect.ts";
import { assemble } from "../loader/project.ts";

/**
 * Serves a project whose config and tool modules were imported statically by the entry that
 * `mcpbin build` generated, so nothing is read from disk at run time. Warnings were shown at build
 * time and are not repeated on every start.
 * @param config - the config module's default export.
 * @param label - the config file's name, for messages.
 * @param modules - every discovered tool module, in load order.
 * @param dir - the config file's folder at build time (its `skills` paths are relative to it; the build recorded them under those paths).
 * @returns what `serve()` returns.
 * @throws ConfigError or LoaderError (only if the sources changed in a way the build would have refused).
 */
export function serveEmbedded(
  config: unknown,
  label: string,
  modules: readonly LoadedModule[],
  dir?: string,
): Promise<void> {
  return serve(assemble(checkConfig(config, label), label, modules, () => {}, dir));
}
