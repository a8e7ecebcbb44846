/** @module defineConfig(): the shape of mcpbin.config.ts and the error for a config mistake. */
import type { ServerOptions } from "../shared/server-options.ts";

/**
 * An `mcpbin.config.ts` (project style): the server options of `serve()` except that `tools` names
 * files and directories (relative to the config file) instead of holding tools.
 */
export type McpbinConfig = Omit<ServerOptions, "tools" | "resources" | "prompts"> & {
  /** Tool modules and directories of tool modules, relative to the config file. Directories are scanned recursively. */
  readonly tools: readonly string[];
  /**
   * Only the tools whose names match one of these glob patterns (e.g. `admin_*`) are served; the same
   * patterns select the modules' prompts (by name) and resources and templates (by name or URI).
   */
  readonly include?: readonly string[];
  /** The tools (prompts, resources) whose names match one of these glob patterns are left out. Applied after `include`. */
  readonly exclude?: readonly string[];
};

/**
 * Declares a project configuration; the config file's default export. Checked when it is loaded
 * (`mcpbin build|dev|list|call`), where every mistake is reported with the file and the key.
 * @param config - name, version, tools (paths), include/exclude filters and the other server options.
 * @returns the same object, typed.
 */
export function defineConfig<const C extends McpbinConfig>(config: C): C {
  return config;
}

/** A mistake in a config file; the message names the file, the key and what is expected. */
export class ConfigError extends Error {
  readonly code = "CONFIG";
  /** @param message - `<file>: "<key>" <what is expected>`. */
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
