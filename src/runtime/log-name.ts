/** @module The name a server's own stderr lines start with: a compiled executable's file name, else `mcpbin`. */
import { isCompiledExecutable } from "./compiled.ts";

let name: string | undefined;

/**
 * The prefix of the diagnostics a server writes on stderr (`<name>: MCP over HTTP at …`, `<name>: upstream …`):
 * a compiled executable's own file name without `.exe`, as its `--version` and TTY banner print it, so a
 * client's log names the server that wrote it; `mcpbin` when run from source (`mcpbin dev`, `proxy`, a script).
 * @returns the name, computed once.
 */
export function logName(): string {
  return (name ??= isCompiledExecutable() ? process.execPath.split(/[\\/]/).pop()!.replace(/\.exe$/i, "") : "mcpbin");
}
