/** @module `mcpbin release`: one archive and one MCP Bundle per platform, SHA256SUMS and server.json. */
import { release, RELEASE_PLATFORMS } from "../release.ts";
import { pickSource } from "../source.ts";
import { extra, parse } from "../command.ts";
import type { ParseArgsOptionsConfig } from "node:util";
import type { Command } from "../command.ts";

const OPTIONS = {
  config: { type: "string" },
  targets: { type: "string" },
  outdir: { type: "string" },
  "registry-name": { type: "string" },
  "download-url": { type: "string" },
} as const satisfies ParseArgsOptionsConfig;

/** `mcpbin release`. */
export const releaseCommand: Command = {
  name: "release",
  help: `  mcpbin release [entry.ts | --config FILE] [--targets LIST] [--outdir DIR]
                 [--registry-name io.github.USER/NAME] [--download-url URL]
                 one archive and one MCP Bundle per platform, SHA256SUMS and server.json
                 (the MCP Registry; URL with {version} and {file}) in DIR (default dist/release);
                 LIST is comma-separated from ${RELEASE_PLATFORMS.slice(0, 3).join(", ")},
                 ${RELEASE_PLATFORMS.slice(3).join(", ")} (default all)`,
  options: OPTIONS,
  run,
};

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse("release", args, OPTIONS);
  extra("release", positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], "release");
  const targets =
    values.targets === undefined
      ? undefined
      : String(values.targets)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  const r = await release(src, {
    targets,
    outdir: values.outdir as string | undefined,
    registryName: values["registry-name"] as string | undefined,
    downloadUrl: values["download-url"] as string | undefined,
  });
  process.stdout.write(
    r.archives.map((a) => `${a}\n`).join("") + `${r.sums}\n` + (r.serverJson ? `${r.serverJson}\n` : ""),
  );
  return 0;
}
