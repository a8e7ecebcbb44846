/** @module `mcpbin prompt`: gets one prompt's messages in-process. */
import { Registry } from "../../server/registry.ts";
import { asIfAlone } from "../../loader/script.ts";
import { CliError } from "../errors.ts";
import { parsePairs, renderMessages, requestOnce } from "../read-prompt.ts";
import { loadSource, pickSource } from "../source.ts";
import { exitSoon, extra, ownStdout, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = { config: { type: "string" }, json: { type: "boolean" } } as const satisfies ParseArgsOptionsConfig;

/** `mcpbin prompt`. */
export const promptCommand: Command = {
  name: "prompt",
  help: `  mcpbin prompt <name> [key=value]... [entry.ts | --config FILE] [--json]
                 get one prompt's messages in-process`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("prompt", args, OPTIONS);
  const [name, ...rest] = positionals;
  if (!name) throw new CliError(`prompt needs a prompt name: mcpbin prompt <name> key=value…`, 2);
  // key=value pairs are arguments; one other positional is the entry.
  const others = rest.filter((a) => !a.includes("="));
  extra("prompt", [name, ...others], 2);
  const src = pickSource(values.config as string | undefined, others[0], "prompt");
  const out = ownStdout();
  const registry = new Registry(await loadSource(src));
  const result = await asIfAlone(src.path, () =>
    requestOnce(registry, "prompt", "prompts/get", {
      name,
      arguments: parsePairs(rest.filter((a) => a.includes("="))),
    }),
  );
  await out(values.json === true ? JSON.stringify(result, null, 2) + "\n" : renderMessages(result));
  exitSoon();
  return 0;
}
