/** @module Writing server.json (the MCP Registry) beside what `mcpbin release` and `mcpbin bundle` wrote, and saying what is left to edit. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { displayPath } from "../config/load.ts";
import { serverJson, type RegistryPackage } from "../build/registry.ts";
import { CliError } from "./errors.ts";
import type { EnvVar } from "./env-scan.ts";
import type { BundledServer, PackageFields } from "./mcpb.ts";

/** The options of release and bundle that shape server.json. */
export interface RegistryOptions {
  /** The MCP Registry name (`io.github.<user>/<name>`); default package.json's `mcpName`. */
  readonly registryName?: string;
  /** The download URL of each file, with `{version}` and `{file}`; default a GitHub release URL to edit. */
  readonly downloadUrl?: string;
  /** server.json's description (at most 100 characters); default the package.json description. */
  readonly description?: string;
}

/**
 * Writes `server.json` into `dir` and says on stderr where, and what to edit before publishing.
 * @returns its path.
 * @throws CliError (exit 2) for a registry name that is not `<namespace>/<name>`.
 */
export function writeServerJson(
  dir: string,
  r: BundledServer,
  packages: readonly RegistryPackage[],
  env: readonly EnvVar[],
  pkg: PackageFields,
  o: RegistryOptions,
  command: string,
): string {
  let out: ReturnType<typeof serverJson>;
  try {
    out = serverJson({
      serverName: r.serverName,
      version: r.version,
      description: o.description ?? pkg.description ?? `MCP server ${r.serverName}`,
      registryName: o.registryName ?? pkg.mcpName,
      downloadUrl: o.downloadUrl,
      repository: pkg.repository,
      packages,
      env,
    });
  } catch (e) {
    throw new CliError(`${command}: ${(e as Error).message}`, 2);
  }
  const file = join(dir, "server.json");
  writeFileSync(file, JSON.stringify(out.json, null, 2) + "\n");
  process.stderr.write(
    `mcpbin: ${command}: server.json for the MCP Registry → ${displayPath(file)}${out.todo.length ? `; before publishing, edit: ${out.todo.join("; ")}` : ""}\n`,
  );
  return file;
}
