/** @module How a server that fails at start-up says so: one line on stderr and exit code 1, not a stack with source. */

/** mcpbin's own error classes (by `name`, so a second copy of mcpbin is recognised): their message is the whole story. */
const OWN_ERRORS = new Set([
  "ToolDefinitionError",
  "ConfigError",
  "LoaderError",
  "ContentError",
  "CliError",
  "HttpOptionsError",
  "JsonOptionsError",
  "JsonEncodeError",
  "ToolArgumentsError",
]);

/**
 * The text to print for an error that ended start-up: the first line of the message for mcpbin's
 * own typed errors (they say what to change), the stack for anything else (an author's bug needs it).
 * @param name - who is speaking: the executable's name, or `mcpbin` under `mcpbin dev`.
 * @param e - what the entry threw or rejected with.
 * @returns `<name>: <message>` without a trailing newline.
 */
export function startupErrorText(name: string, e: unknown): string {
  if (e instanceof Error) {
    if (OWN_ERRORS.has(e.name)) return `${name}: ${e.message.split("\n")[0]}`;
    return `${name}: ${e.stack ?? `${e.name}: ${e.message}`}`;
  }
  return `${name}: ${String(e)}`;
}

/**
 * Reports an error that ended start-up on stderr ({@link startupErrorText}) and ends the process
 * with exit code 1. Used by the entry `mcpbin build` compiles and by `mcpbin dev`.
 * @param name - the executable's name (or `mcpbin`).
 * @param e - the error.
 * @returns never; the process exits.
 */
export function exitOnStartupError(name: string, e: unknown): never {
  process.stderr.write(`${startupErrorText(name, e)}\n`);
  process.exit(1);
}
