/** @module `mcpbin init`: scaffolds a project. */
import { resolve } from "node:path";
import { initProject } from "../init.ts";
import { extra, parse } from "../command.ts";
import pkg from "../../../package.json" with { type: "json" };
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = { mcpbin: { type: "string" }, skill: { type: "string" } } as const satisfies ParseArgsOptionsConfig;

/** `mcpbin init`. */
export const initCommand: Command = {
  name: "init",
  help: `  mcpbin init [dir] [--mcpbin SPEC] [--skill NAME]
                 scaffold a project: config, tools/, a test, package.json, README
                 (and skills/NAME/SKILL.md, an Agent Skill the executable serves);
                 SPEC is its mcpbin dependency (default: a file: link to this clone, or,
                 installed, the tarball/folder/git spec it was installed from, else ^${pkg.version})`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("init", args, OPTIONS);
  extra("init", positionals, 1);
  const dir = resolve(positionals[0] ?? ".");
  const created = initProject(dir, values.mcpbin as string | undefined, {
    skill: values.skill as string | undefined,
    given: positionals[0],
  });
  process.stdout.write(`${created.summary}\n`);
  return 0;
}
