/** @module What a CLI command works on: a project config or a script entry, and the tools it serves. */
import { existsSync } from "node:fs";
import { basename, resolve } from "node:path";
import { DEFAULT_CONFIG, displayPath } from "../config/load.ts";
import { loadProject } from "../loader/project.ts";
import { collectScript } from "../loader/script.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import { CliError } from "./errors.ts";

/** A project config (`mcpbin.config.ts`) or a script entry ending with `serve()`. */
export type Source = { readonly kind: "config" | "script"; readonly path: string };

const CONFIG_NAME = /^mcpbin\.config\.(ts|mts|js|mjs)$/;

/**
 * Picks what a command works on: `--config FILE`; else a positional file (a file named
 * `mcpbin.config.*` is a config, anything else a script); else `./mcpbin.config.ts`.
 * @throws CliError when both are given, or nothing is given and there is no ./mcpbin.config.ts.
 */
export function pickSource(config: string | undefined, positional: string | undefined, command: string): Source {
  if (config !== undefined && positional !== undefined)
    throw new CliError(`${command}: give --config FILE or an entry script, not both`, 2);
  if (config !== undefined) return { kind: "config", path: resolve(config) };
  if (positional !== undefined)
    return { kind: CONFIG_NAME.test(basename(positional)) ? "config" : "script", path: resolve(positional) };
  const def = resolve(DEFAULT_CONFIG);
  if (!existsSync(def))
    throw new CliError(
      `${command}: no ${DEFAULT_CONFIG} in ${displayPath(process.cwd()) || "."}; pass --config FILE or an entry script (or create a project with: mcpbin init)`,
      2,
    );
  return { kind: "config", path: def };
}

/**
 * Loads the tools of a source in this process, without serving: a config through the loader
 * (warnings on stderr), a script through the `serve()` collector.
 * @returns the server options, with `tools` flattened.
 */
export async function loadSource(
  src: Source,
  fresh?: number,
): Promise<ServerOptions & { tools: ServerOptions["tools"] }> {
  if (src.kind === "config") return (await loadProject(src.path)).options;
  const options = await collectScript(src.path, fresh);
  return { ...options, tools: (options.tools ?? []).flat() };
}
