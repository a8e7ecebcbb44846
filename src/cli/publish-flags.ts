/** @module The arguments `mcpbin release` and `mcpbin bundle` share: the source, the platforms (`--targets`) and the MCP Registry's name and download URL, parsed in one place. */
import type { ParseArgsOptionsConfig } from "node:util";
import { extra, parse } from "./command.ts";
import { pickSource, type Source } from "./source.ts";
import type { RegistryOptions } from "./server-json.ts";

/** The options both commands take. */
export const PUBLISH_OPTIONS = {
  config: { type: "string" },
  targets: { type: "string" },
  "registry-name": { type: "string" },
  "download-url": { type: "string" },
} as const satisfies ParseArgsOptionsConfig;

/** What {@link parsePublishArgs} read. */
export interface PublishArgs {
  /** Every option's value, the command's own included. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The script or project. */
  readonly src: Source;
  /** `--targets` split on commas (blanks dropped); undefined for every platform. */
  readonly targets?: string[];
  /** `--registry-name` and `--download-url`. */
  readonly registry: RegistryOptions;
}

/**
 * Parses `release` or `bundle`: at most one entry, the shared options and the command's own.
 * @param command - the command word, for messages.
 * @param args - the arguments after it.
 * @param own - the command's other options.
 * @throws CliError (exit 2) for an unknown option, an extra argument, or both an entry and --config.
 */
export function parsePublishArgs<O extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  own: O,
): PublishArgs {
  const parsed = parse(command, args, { ...PUBLISH_OPTIONS, ...own });
  const values = parsed.values as Readonly<Record<string, unknown>>;
  const positionals = parsed.positionals;
  extra(command, positionals, 1);
  const src = pickSource(values.config as string | undefined, positionals[0], command);
  const list = values.targets as string | undefined;
  const targets =
    list === undefined
      ? undefined
      : list
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  const registry: RegistryOptions = {
    registryName: values["registry-name"] as string | undefined,
    downloadUrl: values["download-url"] as string | undefined,
  };
  return targets === undefined ? { values, src, registry } : { values, src, targets, registry };
}
