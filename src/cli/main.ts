/** @module The mcpbin command line: finds the command in the table (src/cli/commands/index.ts) and runs it; --help, --version, one-line errors. */
import "../serve/capabilities.ts";
import { CliError } from "./errors.ts";
import { BuildError } from "../build/errors.ts";
import { COMMANDS } from "./commands/index.ts";
import { commandHelp, didYouMean, overview } from "./help.ts";
import pkg from "../../package.json" with { type: "json" };

export { parseErrorLine } from "./command.ts";
export { commandHelp } from "./help.ts";

/**
 * Runs the CLI.
 * @param argv - arguments after the executable and script.
 * @returns the exit code; errors are one line on stderr.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (e) {
    if (e instanceof CliError || e instanceof BuildError) {
      process.stderr.write(`mcpbin: ${e.message}\n`);
      return e.exitCode;
    }
    const msg = e instanceof Error ? e.message : String(e);
    process.stderr.write(`mcpbin: ${msg.split("\n")[0]}\n`);
    return 1;
  }
}

async function run(argv: string[]): Promise<number> {
  const [word, ...rest] = argv;
  if (word === undefined || word === "--help" || word === "-h" || word === "help") {
    process.stdout.write(overview());
    return word === undefined ? 2 : 0;
  }
  if (word === "--version" || word === "-v") {
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === word);
  if (command === undefined) {
    const near = didYouMean(word);
    throw new CliError(`unknown command "${word}"; ${near ? `did you mean "${near}"? ` : ""}see mcpbin --help`, 2);
  }
  const own = rest.indexOf("--");
  const flags = own === -1 ? rest : rest.slice(0, own);
  if (flags.includes("--help") || flags.includes("-h")) {
    process.stdout.write(commandHelp(command.name)!);
    return 0;
  }
  return command.run(rest);
}
