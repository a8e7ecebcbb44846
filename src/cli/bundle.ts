/** @module mcpbin bundle: an MCP Bundle (.mcpb, the desktop clients' one-click install format) holding the executable per platform and its manifest, and server.json for the MCP Registry beside it. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { displayPath } from "../config/load.ts";
import { sha256 } from "../build/archive.ts";
import { CliError } from "./errors.ts";
import { scanEnv, type EnvVar } from "./env-scan.ts";
import { checkPlatforms, compilePlatforms, RELEASE_PLATFORMS } from "./release.ts";
import type { Source } from "./source.ts";
import { removeTempDir, tempDir } from "../build/temp-dirs.ts";
import { mcpbArchive, readPackage } from "./mcpb.ts";
import { writeServerJson, type RegistryOptions } from "./server-json.ts";

export { MCPB_MANIFEST_VERSION, mcpConfig, userConfig, userKey } from "./mcpb.ts";

/** What `mcpbin bundle` takes. */
export interface BundleOptions extends RegistryOptions {
  /** Where the bundle goes; default `dist/<name>.mcpb`. */
  readonly outfile?: string;
  /** Platforms from {@link RELEASE_PLATFORMS}; default all. */
  readonly targets?: readonly string[];
  /** The manifest's `author.name`; default the package.json author beside the source, else the server's name. */
  readonly author?: string;
  /** The manifest's `description`; default the package.json description, else a sentence naming the tools. */
  readonly description?: string;
}

/** What {@link bundle} wrote. */
export interface BundleResult {
  readonly file: string;
  readonly manifest: Record<string, unknown>;
  /** The environment variables offered as `user_config`. */
  readonly env: readonly EnvVar[];
  /** server.json for the MCP Registry, beside the bundle. */
  readonly serverJson: string;
}

/**
 * Compiles the server for each platform (as `mcpbin release` does) and writes an MCP Bundle ({@link mcpbArchive}):
 * a zip holding the manifest and `server/<platform>/<name>[.exe]`, and beside it `server.json` for the MCP
 * Registry (one `mcpb` package: the bundle's download URL and SHA-256). The environment variables the server's
 * code reads ({@link scanEnv}) become `user_config` entries and the registry's `environmentVariables`.
 * @param src - the script or config.
 * @param o - see {@link BundleOptions}.
 * @returns the bundle.
 * @throws CliError for an unknown platform, a source that fails its check run, or a platform that could
 *   not be compiled (then nothing is written).
 */
export async function bundle(src: Source, o: BundleOptions): Promise<BundleResult> {
  const platforms = o.targets ?? RELEASE_PLATFORMS;
  checkPlatforms(platforms, "bundle");
  const stage = tempDir("mcpbin-bundle-");
  try {
    let env: EnvVar[] = [];
    const r = await compilePlatforms(src, platforms, stage, "bundle", (entry) => (env = scanEnv(entry)));
    if (r.failed.length)
      throw new CliError(`bundle: could not compile for ${r.failed.join(", ")} (see above); no bundle written`);
    const pkg = readPackage(dirname(src.path));
    const { data, manifest } = mcpbArchive(r, r.built, env, pkg, o);
    const file = resolve(o.outfile ?? join("dist", `${r.name}.mcpb`));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data);
    process.stderr.write(
      `mcpbin: bundle: ${r.built.map((b) => b.platform).join(", ")} → ${displayPath(file)} (${(data.length / 1048576).toFixed(1)} MiB)${env.length ? `; user_config: ${env.map((e) => e.name).join(", ")}` : ""}\n`,
    );
    const serverJson = writeServerJson(
      dirname(file),
      r,
      [{ file: file.slice(dirname(file).length + 1), sha256: sha256(data) }],
      env,
      pkg,
      { ...o, description: o.description ?? (manifest.description as string) },
      "bundle",
    );
    return { file, manifest, env, serverJson };
  } finally {
    removeTempDir(stage);
  }
}
