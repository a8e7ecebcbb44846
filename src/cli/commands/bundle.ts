/** @module `mcpbin bundle`: an MCP Bundle (.mcpb) for one-click install in desktop clients. */
import { bundle } from "../bundle.ts";
import { pickSource } from "../source.ts";
import { extra, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
  config: { type: "string" },
  targets: { type: "string" },
  outfile: { type: "string" },
  author: { type: "string" },
  description: { type: "string" },
  "registry-name": { type: "string" },
  "download-url": { type: "string" },
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
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("bundle", args, OPTIONS);
  extra("bundle", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "bundle");
  const targets =
    values.targets === undefined
      ? undefined
      : String(values.targets)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  const r = await bundle(src, {
    targets,
    outfile: values.outfile as string | undefined,
    author: values.author as string | undefined,
    description: values.description as string | undefined,
    registryName: values["registry-name"] as string | undefined,
    downloadUrl: values["download-url"] as string | undefined,
  });
  process.stdout.write(`${r.file}\n`);
  return 0;
}
