/** @module `mcpbin bundle`: an MCP Bundle (.mcpb) for one-click install in desktop clients. */
import { bundle } from "../bundle.ts";
import { parsePublishArgs, PUBLISH_OPTIONS } from "../publish-flags.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

/** Its own options, beside those it shares with `release` (src/cli/publish-flags.ts). */
const OWN = {
  outfile: { type: "string" },
  author: { type: "string" },
  description: { type: "string" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin bundle`. */
export const bundleCommand: Command = {
  name: "bundle",
  help: `  mcpbin bundle [entry.ts | --config FILE] [--outfile FILE.mcpb] [--targets LIST]
                 [--author NAME] [--description TEXT] [--registry-name NAME] [--download-url URL]
                 an MCP Bundle (.mcpb) for one-click install in desktop clients (and
                 server.json for the MCP Registry beside it): the
                 executable per platform (as release builds them) and a manifest whose
                 user_config offers the environment variables the server's code reads`,
  options: { ...PUBLISH_OPTIONS, ...OWN },
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, src, targets, registry } = parsePublishArgs("bundle", args, OWN);
  const r = await bundle(src, {
    targets,
    outfile: values.outfile as string | undefined,
    author: values.author as string | undefined,
    description: values.description as string | undefined,
    ...registry,
  });
  process.stdout.write(`${r.file}\n`);
  return 0;
}
