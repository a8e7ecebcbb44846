/** @module mcpbin's help, made from the table of commands: the overview, one command's usage, and "did you mean" for a mistyped one. */
import type { Command } from "./command.ts";
import { COMMANDS } from "./commands/index.ts";
import { distance } from "../shared/option-keys.ts";
import pkg from "../../package.json" with { type: "json" };

/** The notes that apply to every command. */
const NOTES = `Without an entry or --config, commands use ./mcpbin.config.ts. A positional file named
mcpbin.config.* is a config; any other is a script that ends with serve().
TARGET is a Bun compile target such as bun-linux-arm64, bun-darwin-arm64, bun-windows-x64.
`;

/** `mcpbin --help`: every command's lines from the table, then the notes and examples. */
export function overview(commands: readonly Command[] = COMMANDS): string {
  return `mcpbin ${pkg.version}: TypeScript MCP tools, served by one executable

Usage:
${commands.map((c) => c.help).join("\n")}
  mcpbin --help    this text
  mcpbin --version the version

${NOTES}
Examples:
  mcpbin init my-server && cd my-server && npm install && npm test
  mcpbin build --config mcpbin.config.ts --outfile dist/my-server
  mcpbin call add_numbers '{"x": 2, "y": 3}'
  claude mcp add my-server -- "$PWD/dist/my-server"
`;
}

/**
 * The usage of one command: its lines of the overview, and the notes that apply to every command.
 * @param command - the command word.
 * @returns the text, or undefined for a command the table lacks.
 */
export function commandHelp(command: string): string | undefined {
  const c = COMMANDS.find((x) => x.name === command);
  return c === undefined ? undefined : `Usage:\n${c.help}\n\n${NOTES}`;
}

/**
 * The command a mistyped word most likely meant (`biuld` → `build`): the nearest by edit distance (a swap of two
 * neighbouring letters counts as one edit), when it is at most 2 edits away and closer than any other.
 * @param word - what was typed.
 * @returns the command's name, or undefined.
 */
export function didYouMean(word: string, names: readonly string[] = COMMANDS.map((c) => c.name)): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  let tie = false;
  for (const n of names) {
    const d = distance(word.toLowerCase(), n);
    if (d < bestD) [best, bestD, tie] = [n, d, false];
    else if (d === bestD) tie = true;
  }
  return best !== undefined && !tie && bestD <= Math.min(2, Math.max(1, Math.floor(word.length / 2)))
    ? best
    : undefined;
}
