/** @module `mcpbin read`: reads one resource in-process. */
import { Registry } from "../../server/registry.ts";
import { asIfAlone } from "../../loader/script.ts";
import { CliError } from "../errors.ts";
import { renderContents, requestOnce } from "../read-prompt.ts";
import { loadSource, pickSource } from "../source.ts";
import { exitSoon, extra, ownStdout, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = { config: { type: "string" }, json: { type: "boolean" } } as const satisfies ParseArgsOptionsConfig;

/** `mcpbin read`. */
export const readCommand: Command = {
  name: "read",
  help: `  mcpbin read <uri> [entry.ts | --config FILE] [--json]
                 read one resource in-process and print its contents`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("read", args, OPTIONS);
  extra("read", positionals, 2);
  const [uri, entry] = positionals;
  if (!uri) throw new CliError(`read needs a URI: mcpbin read <uri>`, 2);
  const src = pickSource(values.config as string | undefined, entry, "read");
  const out = ownStdout();
  const registry = new Registry(await loadSource(src));
  const result = await asIfAlone(src.path, () => requestOnce(registry, "read", "resources/read", { uri }));
  await out(values.json === true ? JSON.stringify(result, null, 2) + "\n" : renderContents(result));
  exitSoon();
  return 0;
}
