/** @module The name a server's own stderr lines start with (a compiled executable's file name, else `mcpbin`), and the one logger that writes them. */
import { isCompiledExecutable } from "./compiled.ts";

let name: string | undefined;

/**
 * The prefix of the diagnostics a server writes on stderr (`<name>: MCP over HTTP at …`, `<name>: upstream …`):
 * a compiled executable's own file name without `.exe`, as its `--version` and TTY banner print it, so a
 * client's log names the server that wrote it; `mcpbin` when run from source (`mcpbin dev`, `proxy`, a script).
 * @returns the name, computed once.
 */
export function logName(): string {
  return (name ??= isCompiledExecutable()
    ? process.execPath
        .split(/[\\/]/)
        .pop()!
        .replace(/\.exe$/i, "")
    : "mcpbin");
}

/**
 * Writes one diagnostic line on stderr, starting with the executable's own name ({@link logName}): the one way
 * code that ships in an executable logs, so a client's log names the server that wrote the line.
 * @param text - the line, without the name and without a newline.
 */
export function logLine(text: string): void {
  process.stderr.write(`${logName()}: ${text}\n`);
}
