/** @module Loading a config file from disk: import it, take its default export, check it. */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, relative, resolve } from "node:path";
import { ConfigError, type McpbinConfig } from "./define.ts";
import { checkConfig } from "./schema.ts";
import { syntaxErrorText } from "../runtime/startup.ts";

/** The name `mcpbin` looks for when no config or entry is given. */
export const DEFAULT_CONFIG = "mcpbin.config.ts";

/** A loaded, checked config file. */
export interface LoadedConfig {
  readonly config: McpbinConfig;
  /** Absolute path of the config file. */
  readonly file: string;
  /** Absolute directory the `tools` paths are relative to. */
  readonly dir: string;
  /** The file as messages name it (relative to the working directory when inside it). */
  readonly label: string;
}

/** A path for messages: relative to the working directory when below it, else absolute. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith("..") ? path : rel;
}

/**
 * Imports a config file and checks its default export.
 * @param path - the config file (absolute or relative to the working directory).
 * @returns the config with its location.
 * @throws ConfigError when the file is missing, fails to import (with the cause), or holds a mistake.
 */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  const file = resolve(path);
  const label = displayPath(file);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new ConfigError(
      `${label}: config file not found${basename(path) === DEFAULT_CONFIG ? " (create one with: mcpbin init)" : ""}`,
    );
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(file)) as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`${label}: the config file failed to load: ${firstLine(e)}`);
  }
  if (!("default" in mod))
    throw new ConfigError(`${label}: no default export; end the file with: export default defineConfig({ ... })`);
  return { config: checkConfig(mod.default, label), file, dir: dirname(file), label };
}

/** The first line of an error's message; for a Bun syntax error (an AggregateError of BuildMessages), `file:line:col: message` of its first error. */
export function firstLine(e: unknown): string {
  const syntax = syntaxErrorText(e, displayPath);
  if (syntax) return syntax;
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split("\n")[0] ?? msg;
}
