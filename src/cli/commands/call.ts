/** @module `mcpbin call`: runs one tool in-process and prints what a client would see. */
import { Registry } from "../../server/registry.ts";
import { asIfAlone } from "../../loader/script.ts";
import { CliError } from "../errors.ts";
import { callTool, parseCallArguments, renderResult } from "../call.ts";
import { enableTasks } from "../../tasks/register.ts";
import { loadSource, pickSource } from "../source.ts";
import { exitSoon, extra, ownStdout, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
  config: { type: "string" },
  json: { type: "boolean" },
  task: { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin call`. */
export const callCommand: Command = {
  name: "call",
  help: `  mcpbin call <tool> ['<json arguments>'] [entry.ts | --config FILE] [--json] [--task]
                 run one tool in-process and print what a client would see
                 (--json: the tools/call result as sent; exit 1 on an isError result;
                 --task: run it as a task, its status and progress on stderr until the result)`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("call", args, OPTIONS);
  extra("call", positionals, 3);
  let [name, json, entry] = positionals;
  // The JSON arguments are optional: `call <tool> server.ts` names the entry script, not the arguments.
  if (
    entry === undefined &&
    json !== undefined &&
    !json.trimStart().startsWith("{") &&
    /\.(?:[cm]?[jt]sx?)$/.test(json)
  )
    [json, entry] = [undefined, json];
  if (!name) throw new CliError(`call needs a tool name: mcpbin call <tool> '<json arguments>'`, 2);
  // The entry first (as `mcpbin list` takes it): say the order instead of "entry not found" for the JSON.
  if (/\.(?:[cm]?[jt]sx?)$/.test(name) && entry !== undefined && entry.trimStart().startsWith("{")) {
    throw new CliError(`call: the tool comes first: mcpbin call ${json ?? "<tool>"} '${entry}' ${name}`, 2);
  }
  const src = pickSource(values.config as string | undefined, entry, "call");
  const out = ownStdout();
  const options = await loadSource(src);
  const registry = new Registry(options);
  if (values.task === true) enableTasks(options);
  const outcome = await asIfAlone(src.path, () =>
    callTool(registry, name, parseCallArguments(json), { task: values.task === true }),
  );
  await out(values.json === true ? JSON.stringify(outcome.result, null, 2) + "\n" : renderResult(outcome.result));
  if (outcome.isError) process.stderr.write(`mcpbin: tool ${name} returned an error result (isError)\n`);
  exitSoon(); // timers or handles the author's code left behind must not keep the command alive
  return outcome.isError ? 1 : 0;
}
