/** @module `mcpbin list`: the tools, resources, resource templates and prompts a script or project serves. */
import { Registry } from "../../server/registry.ts";
import { renderList } from "../list.ts";
import { loadSource, pickSource } from "../source.ts";
import { exitSoon, extra, ownStdout, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = { config: { type: "string" }, json: { type: "boolean" } } as const satisfies ParseArgsOptionsConfig;

/** `mcpbin list`. */
export const listCommand: Command = {
  name: "list",
  help: `  mcpbin list [entry.ts | --config FILE] [--json]
                 the tools: name, title, parameters, required parameters, source;
                 then the resources, resource templates and prompts`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("list", args, OPTIONS);
  extra("list", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "list");
  const out = ownStdout();
  const registry = new Registry(await loadSource(src));
  await out(renderList(registry, src, values.json === true));
  exitSoon(); // timers or handles the author's code left behind must not keep the command alive
  return 0;
}
