/** @module The mcpbin command line: build, dev, --help, --version. */
import { parseArgs } from "node:util";
import { basename, resolve } from "node:path";
import { CliError } from "./errors.ts";
import { clientConfig, compile } from "./build.ts";
import pkg from "../../package.json" with { type: "json" };

const HELP = `mcpbin ${pkg.version}: TypeScript MCP tools, served by one executable

Usage:
  mcpbin build <entry.ts> [--outfile PATH] [--target TARGET]
                         compile a server script into one executable and print
                         client configuration for it
  mcpbin dev <entry.ts>  serve a server script from source over stdio
  mcpbin --help          this text
  mcpbin --version       the version

Examples:
  mcpbin build server.ts --outfile dist/my-server
  claude mcp add my-server -- "$PWD/dist/my-server"
`;

/**
 * Runs the CLI.
 * @param argv - arguments after the executable and script.
 * @returns the exit code; errors are one line on stderr.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`mcpbin: ${e.message}\n`);
      return e.exitCode;
    }
    const msg = e instanceof Error ? e.message : String(e);
    process.stderr.write(`mcpbin: ${msg.split("\n")[0]}\n`);
    return 1;
  }
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (command === "build") return build(rest);
  if (command === "dev") return dev(rest);
  throw new CliError(`unknown command "${command}"; see mcpbin --help`, 2);
}

function parse(args: string[], options: Parameters<typeof parseArgs>[0]["options"]) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError(`${(e as Error).message}; see mcpbin --help`, 2);
  }
}

async function build(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { outfile: { type: "string" }, target: { type: "string" } });
  const entry = positionals[0];
  if (!entry) throw new CliError("build needs an entry file: mcpbin build <entry.ts> [--outfile PATH]", 2);
  const started = performance.now();
  const path = await compile({ entry, outfile: values.outfile as string | undefined, target: values.target as string | undefined });
  const name = basename(path).replace(/\.exe$/, "");
  process.stderr.write(`mcpbin: built in ${Math.round(performance.now() - started)} ms\n`);
  process.stdout.write(`${path}\n\n${clientConfig(path, name)}\n`);
  return 0;
}

async function dev(args: string[]): Promise<number> {
  const { positionals } = parse(args, {});
  const entry = positionals[0];
  if (!entry) throw new CliError("dev needs an entry file: mcpbin dev <entry.ts>", 2);
  const p = Bun.spawn([process.execPath, resolve(entry)], { stdin: "inherit", stdout: "inherit", stderr: "inherit" });
  const forward = (sig: NodeJS.Signals) => p.kill(sig);
  process.on("SIGTERM", forward);
  process.on("SIGINT", forward);
  return await p.exited;
}
