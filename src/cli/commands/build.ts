/** @module `mcpbin build`: compiles a script or project into one executable and prints client configuration for it. */
import { clientConfig } from "../client-config.ts";
import { pickSource } from "../source.ts";
import { buildSource } from "../build-source.ts";
import { compileTarget, extra, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
  config: { type: "string" },
  outfile: { type: "string" },
  target: { type: "string" },
  "no-smol": { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin build`. */
export const buildCommand: Command = {
  name: "build",
  help: `  mcpbin build [entry.ts | --config FILE] [--outfile PATH] [--target TARGET] [--no-smol]
                 compile a server script, or a project (default ./mcpbin.config.ts),
                 into one executable and print client configuration for it; it runs
                 with Bun's --smol (less memory) unless --no-smol (faster start for a
                 server that builds hundreds of schemas at start)`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("build", args, OPTIONS);
  extra("build", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "build");
  const { path, name, env, http } = await buildSource(src, {
    outfile: values.outfile as string | undefined,
    target: compileTarget("build", values.target as string | undefined),
    smol: values["no-smol"] !== true,
  });
  process.stdout.write(`${path}\n\n${clientConfig(path, name, { env, http })}\n`);
  return 0;
}
