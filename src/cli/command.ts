/** @module What one CLI command is (its help text, its options, what it runs) and the argument parsing every command shares. */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { guardStdout } from "../runtime/stdout-guard.ts";
import { CliError } from "./errors.ts";

/**
 * One command of `mcpbin`: the table in src/cli/commands/index.ts lists them; the overview (`mcpbin --help`), the
 * command's own `--help` and the dispatch all come from it.
 */
export interface Command {
  /** The word after `mcpbin` (`build`). */
  readonly name: string;
  /**
   * Its lines of the overview, as printed: each form `  mcpbin <name> …` (continuation lines indented), then what it
   * does, indented 17 spaces. Every option of {@link options} is named in it (test/cli/help.test.ts).
   */
  readonly help: string;
  /** Its options (node:util parseArgs). */
  readonly options: ParseArgsOptionsConfig;
  /**
   * Runs it.
   * @param args - the arguments after the command word.
   * @returns the exit code.
   * @throws CliError for a usage or input mistake (printed as one line).
   */
  run(args: string[]): Promise<number>;
}

/**
 * Parses a command's arguments with its options (strict: an unknown option is a usage error).
 * @param command - the command, for messages.
 * @param args - its arguments.
 * @param options - its options.
 * @throws CliError (exit 2) naming the option and what the command takes.
 */
export function parse<O extends ParseArgsOptionsConfig>(command: Command | string, args: string[], options: O) {
  const name = typeof command === "string" ? command : command.name;
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(parseErrorLine(name, e as Error & { code?: string }, Object.keys(options)), 2);
  }
}

/**
 * One clear line for an error of node:util's parseArgs (whose messages explain its own syntax instead).
 * @param command - the command (`build`, …).
 * @param e - what parseArgs threw.
 * @param known - the command's option names.
 */
export function parseErrorLine(command: string, e: Error & { code?: string }, known: readonly string[]): string {
  const see = `see mcpbin ${command} --help`;
  const option = /'(-[^' ]+)/.exec(e.message)?.[1];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) {
    return `${command}: unknown option ${option} (${command} takes ${known.map((k) => `--${k}`).join(", ") || "no options"}); ${see}`;
  }
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    return /argument missing/.test(e.message)
      ? `${command}: ${option} needs a value (${option} VALUE); ${see}`
      : `${command}: ${option} takes no value; ${see}`;
  }
  return `${command}: ${e.message.split(". ")[0]}; ${see}`;
}

/** The platforms of Bun's compile targets, `bun-<platform>`; `release` and `bundle` take the short names. */
const BUN_PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"];

/**
 * Checks a `--target` value before anything is compiled: Bun's own refusal of a name without `bun-` says
 * neither which names it takes nor that `release` spells them without the prefix.
 * @returns the target, unchanged.
 * @throws CliError (exit 2) naming the targets, and the `bun-` form of a short name.
 */
export function compileTarget(command: string, target: string | undefined): string | undefined {
  if (target === undefined || target.startsWith("bun-")) return target;
  const hint = BUN_PLATFORMS.includes(target) ? `did you mean "bun-${target}"? ` : "";
  throw new CliError(
    `${command}: --target "${target}" is not a Bun compile target; ${hint}use one of ${BUN_PLATFORMS.map((p) => `bun-${p}`).join(", ")} (Bun's -baseline, -modern and -musl variants too)`,
    2,
  );
}

/**
 * Refuses positional arguments beyond the first `max`.
 * @throws CliError (exit 2) naming the first extra one.
 */
export function extra(command: string, positionals: string[], max: number): void {
  if (positionals.length > max)
    throw new CliError(`${command}: unexpected argument "${positionals[max]}"; see mcpbin --help`, 2);
}

/**
 * For commands that load the author's code in this process (`list`, `call`, `read`, `prompt`): moves fd 1 to stderr
 * (the stdout guard), so whatever that code prints cannot mix with the command's own output.
 * @returns a writer to the real stdout; resolves once the text is handed to the system.
 */
export function ownStdout(): (text: string) => Promise<void> {
  const { fd } = guardStdout();
  return async (text) => {
    const sink = Bun.file(fd).writer();
    sink.write(text);
    await sink.flush();
    await sink.end();
  };
}

/** Lets the command end although timers or handles the author's code left behind would keep it alive. */
export function exitSoon(): void {
  setTimeout(() => process.exit(process.exitCode ?? 0), 100).unref();
}
