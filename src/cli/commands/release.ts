/** @module `mcpbin release`: one archive and one MCP Bundle per platform, SHA256SUMS and server.json. */
import { release, RELEASE_PLATFORMS } from "../release.ts";
import { parsePublishArgs, PUBLISH_OPTIONS } from "../publish-flags.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

/** Its own options, beside those it shares with `bundle` (src/cli/publish-flags.ts). */
const OWN = { outdir: { type: "string" } } as const satisfies ParseArgsOptionsConfig;

/** `mcpbin release`. */
export const releaseCommand: Command = {
  name: "release",
  help: `  mcpbin release [entry.ts | --config FILE] [--targets LIST] [--outdir DIR]
                 [--registry-name io.github.USER/NAME] [--download-url URL]
                 one archive and one MCP Bundle per platform, SHA256SUMS and server.json
                 (the MCP Registry; URL with {version} and {file}) in DIR (default dist/release);
                 LIST is comma-separated from ${RELEASE_PLATFORMS.slice(0, 3).join(", ")},
                 ${RELEASE_PLATFORMS.slice(3).join(", ")} (default all)`,
  options: { ...PUBLISH_OPTIONS, ...OWN },
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, src, targets, registry } = parsePublishArgs("release", args, OWN);
  const r = await release(src, { targets, outdir: values.outdir as string | undefined, ...registry });
  process.stdout.write(
    r.archives.map((a) => `${a}\n`).join("") + `${r.sums}\n` + (r.serverJson ? `${r.serverJson}\n` : ""),
  );
  return 0;
}
