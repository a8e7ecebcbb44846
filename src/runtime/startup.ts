/** @module How a server that fails at start-up says so: one line on stderr and exit code 1, not a stack with source. */

/**
 * Bun's report of a module that does not parse (an AggregateError, "2 errors building <path>", of
 * BuildMessages with a `position`, or one such BuildMessage alone) as one line: `file:line:col: message` of the
 * first, `(and N more)`.
 * @param e - anything thrown by an import.
 * @param show - how to print the file's path (e.g. relative to the working directory).
 * @returns the line, or undefined when `e` is not such an error.
 */
export function syntaxErrorText(e: unknown, show: (path: string) => string): string | undefined {
  // A module with one parse error throws that BuildMessage itself, not an AggregateError of one.
  const single = typeof e === "object" && e !== null && (e as { name?: unknown }).name === "BuildMessage";
  if (!(e instanceof AggregateError) && !single) return undefined;
  const errors = e instanceof AggregateError ? (e.errors as unknown[]) : [e];
  const first = errors[0] as
    { message?: unknown; position?: { file?: unknown; line?: unknown; column?: unknown } | null } | undefined;
  if (!first || typeof first.message !== "string") return undefined;
  const at =
    first.position && typeof first.position.file === "string"
      ? `${show(first.position.file)}:${first.position.line}:${first.position.column}: `
      : "";
  return `${at}${first.message.split("\n")[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}`;
}

/** mcpbin's own error classes (by `name`, so a second copy of mcpbin is recognised): their message is the whole story. */
const OWN_ERRORS = new Set([
  "ToolDefinitionError",
  "ConfigError",
  "LoaderError",
  "ContentError",
  "CliError",
  "HttpOptionsError",
  "AuthOptionsError",
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
  const syntax = syntaxErrorText(e, (path) => {
    // node:path is required here, on a start error only: every start evaluated it (docs/benchmarks.md).
    const { isAbsolute, relative } = require("node:path") as typeof import("node:path");
    const rel = relative(process.cwd(), path);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
  });
  if (syntax) return `${name}: ${syntax}`;
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
