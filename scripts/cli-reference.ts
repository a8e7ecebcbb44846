// Writes the usage block of docs/cli.md from the command table (src/cli/commands/*): the lines
// `mcpbin --help` prints for every command. test/docs/cli-reference.test.ts fails when the block and the table differ.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../src/cli/commands/index.ts";

/** The marker line above the block in docs/cli.md. */
export const MARKER = "<!-- the usage of every command, from src/cli/commands/*: bun scripts/cli-reference.ts -->";

/** The block's text: every command's help, in the table's order. */
export function usageBlock(): string {
  return `\`\`\`text\n${COMMANDS.map((c) => c.help).join("\n")}\n\`\`\``;
}

/**
 * The CLI reference with its usage block replaced by the table's.
 * @throws Error when the marker or the block after it is missing.
 */
export function withUsageBlock(reference: string): string {
  const at = reference.indexOf(MARKER);
  if (at < 0) throw new Error(`docs/cli.md has no line ${MARKER}`);
  const open = reference.indexOf("```text\n", at);
  const close = reference.indexOf("\n```", open + 7);
  if (open < 0 || close < 0) throw new Error("docs/cli.md has no ```text block after the marker");
  return reference.slice(0, open) + usageBlock() + reference.slice(close + 4);
}

if (import.meta.main) {
  const path = join(import.meta.dir, "../docs/cli.md");
  const before = readFileSync(path, "utf8");
  const after = withUsageBlock(before);
  if (after !== before) writeFileSync(path, after);
  console.error(after === before ? "docs/cli.md: the usage block is up to date" : "docs/cli.md: usage block written");
}
