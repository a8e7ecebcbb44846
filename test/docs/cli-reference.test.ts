/** @module docs/cli.md's usage block is what the command table prints (`mcpbin --help`, each command's `--help`), so the two cannot drift. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/proc.ts";
import { mcpbin } from "../cli/run-cli.ts";
import { MARKER, usageBlock, withUsageBlock } from "../../scripts/cli-reference.ts";

const cli = readFileSync(join(ROOT, "docs/cli.md"), "utf8");

test("docs/cli.md's usage block is every command's help from the table (else: bun scripts/cli-reference.ts)", () => {
  expect(cli).toContain(`${MARKER}\n\n${usageBlock()}\n`);
  expect(withUsageBlock(cli)).toBe(cli);
});

test("the block is what mcpbin --help prints, and each command's lines are what mcpbin <command> --help prints", async () => {
  const overview = await mcpbin(["--help"]);
  expect(overview.code).toBe(0);
  const block = usageBlock().split("\n").slice(1, -1).join("\n");
  expect(overview.stdout).toContain(`Usage:\n${block}\n  mcpbin --help`);
  const build = await mcpbin(["build", "--help"]);
  expect(build.stdout).toStartWith(`Usage:\n${block.slice(0, block.indexOf("\n  mcpbin dev "))}\n\n`);
});
