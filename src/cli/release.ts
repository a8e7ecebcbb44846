/** @module mcpbin release: one executable per platform (cross-compiled), archived, plus SHA256SUMS. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { displayPath } from "../config/load.ts";
import { bunExecutable, compile } from "./build.ts";
import { recordBytecodeOrder } from "./bytecode-order.ts";
import { CliError } from "./errors.ts";
import { inspectScript, recordBuildData } from "../build/precompute.ts";
import { executableName, prepareEntry } from "./project-build.ts";
import type { Source } from "./source.ts";
import { sha256, tarGz, zip } from "../build/archive.ts";
import { removeTempDir, tempDir } from "../build/temp-dirs.ts";
import type { RegistryPackage } from "../build/registry.ts";
import { scanEnv, type EnvVar } from "./env-scan.ts";
import { mcpbArchive, readPackage } from "./mcpb.ts";
import { writeServerJson, type RegistryOptions } from "./server-json.ts";

/** The platforms a release covers by default; each is compiled with the Bun target `bun-<platform>`. */
export const RELEASE_PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;

/** What a release produced. */
export interface ReleaseResult {
  /** Absolute paths of the archives. */
  readonly archives: string[];
  /** Absolute path of SHA256SUMS. */
  readonly sums: string;
  /** Absolute path of server.json (the MCP Registry), beside them. */
  readonly serverJson?: string;
}

/** One platform's executable, compiled by {@link compilePlatforms}. */
export interface PlatformBuild {
  readonly platform: (typeof RELEASE_PLATFORMS)[number];
  /** The file name: `<name>` or `<name>.exe`. */
  readonly exe: string;
  /** Absolute path of the executable (in the stage directory). */
  readonly path: string;
}

/** What {@link compilePlatforms} compiled. */
export interface PlatformBuilds {
  /** The executable's name (from the server's name). */
  readonly name: string;
  readonly version: string;
  /** The server's name as served (`serverInfo.name`). */
  readonly serverName: string;
  /** Each tool's name and description. */
  readonly tools: readonly { readonly name: string; readonly description: string }[];
  readonly built: PlatformBuild[];
  /** Platforms that failed to compile (each said so on stderr). */
  readonly failed: string[];
}

/**
 * Checks the platform names.
 * @throws CliError (exit 2) for an unknown platform or an empty list.
 */
export function checkPlatforms(
  platforms: readonly string[],
  command: string,
): asserts platforms is readonly PlatformBuild["platform"][] {
  for (const p of platforms) {
    if (!(RELEASE_PLATFORMS as readonly string[]).includes(p))
      throw new CliError(`${command}: unknown platform "${p}"; expected some of ${RELEASE_PLATFORMS.join(",")}`, 2);
  }
  if (platforms.length === 0)
    throw new CliError(`${command}: --targets is empty; expected some of ${RELEASE_PLATFORMS.join(",")}`, 2);
}

/**
 * Compiles a script or project once per platform into `stage/<platform>/<name>[.exe]`: one check run
 * (what the executable would refuse at start fails here; its recorded JSON Schemas serve every build) and
 * one bytecode-order profile recorded from a build for this machine (the profile names functions, not
 * machine code), so every platform's executable starts as fast as a local build.
 * @param src - the script or config.
 * @param platforms - checked with {@link checkPlatforms}.
 * @param stage - a directory to compile into.
 * @param onEntry - called with the entry being compiled (a generated one for a project) while it exists.
 * @returns the executables; a platform that failed is named in `failed` (and on stderr), not thrown.
 * @throws CliError when the source fails its check run.
 */
export async function compilePlatforms(
  src: Source,
  platforms: readonly PlatformBuild["platform"][],
  stage: string,
  command: string,
  onEntry?: (entry: string) => void,
): Promise<PlatformBuilds> {
  let entry: string;
  let label: string | undefined;
  let cleanup = () => {};
  let order: { file: string; cleanup(): void } | undefined;
  try {
    let name: string;
    let serverName: string;
    let version: string;
    let tools: PlatformBuilds["tools"];
    let schemas: Readonly<Record<string, string>> | undefined;
    let views: Readonly<Record<string, string>> | undefined;
    let validators: Readonly<Record<string, string>> | undefined;
    if (src.kind === "config") {
      const prepared = await prepareEntry(src.path);
      ({ entry, cleanup } = prepared);
      label = prepared.project.label;
      serverName = prepared.project.config.name;
      name = executableName(serverName);
      version = prepared.project.config.version;
      tools = prepared.project.options.tools.map((t) => ({ name: t.name, description: t.definition.description }));
      ({ schemas, views, validators } = await recordBuildData(entry, bunExecutable())); // once here, not once per platform in compile()
    } else {
      // One check run: what the executable would refuse at start (a duplicate tool, a bad option) fails
      // here instead, and the JSON Schemas it records serve every platform's build.
      entry = src.path;
      const checked = await inspectScript(resolve(src.path), bunExecutable());
      if ("notServer" in checked) throw new CliError(checked.notServer);
      serverName = checked.name;
      name = executableName(checked.name);
      version = checked.version;
      tools = checked.toolList;
      schemas = checked.schemas;
      views = checked.views;
      validators = checked.validators;
    }
    onEntry?.(resolve(entry));
    try {
      const host = await compile({
        entry,
        outfile: join(stage, "host", name),
        label,
        schemas,
        views,
        validators,
        profile: false,
      });
      order = await recordBytecodeOrder(host);
    } catch {
      // no profile: the platforms' builds stand without one
    }
    const built: PlatformBuild[] = [];
    const failed: string[] = [];
    for (const platform of platforms) {
      const exe = `${name}${platform.startsWith("windows") ? ".exe" : ""}`;
      try {
        const path = await compile({
          entry,
          outfile: join(stage, platform, exe),
          target: `bun-${platform}`,
          label,
          schemas,
          views,
          validators,
          bytecodeOrder: order?.file,
        });
        built.push({ platform, exe, path });
      } catch (e) {
        process.stderr.write(
          `mcpbin: ${command}: ${platform}: ${(e as Error).message} (is the bun-${platform} runtime reachable in the npm registry?)\n`,
        );
        failed.push(platform);
      }
    }
    return { name, serverName, version, tools, built, failed };
  } finally {
    order?.cleanup();
    cleanup();
  }
}

/**
 * Compiles a script or project for each platform (Bun fetches each target's runtime from the npm
 * registry the first time) and writes `<name>-<version>-<platform>.tar.gz` (`.zip` for Windows),
 * each holding `<name>-<version>-<platform>/<name>[.exe]`, plus `SHA256SUMS` (`sha256sum -c` format).
 * @param src - the script or config.
 * @param o - `targets` (platform names; default all of {@link RELEASE_PLATFORMS}), `outdir` (default dist/release).
 * @returns the archives and the sums file.
 * @throws CliError for an unknown platform, or when a platform could not be compiled (the others are still
 *   written, and named in SHA256SUMS).
 */
export async function release(
  src: Source,
  o: { targets?: readonly string[]; outdir?: string } & RegistryOptions,
): Promise<ReleaseResult> {
  const platforms = o.targets ?? RELEASE_PLATFORMS;
  checkPlatforms(platforms, "release");
  const stage = tempDir("mcpbin-release-");
  const archives: string[] = [];
  const sums: string[] = [];
  let failed: string[];
  const outdir = resolve(o.outdir ?? join("dist", "release"));
  const packages: RegistryPackage[] = [];
  let env: EnvVar[] = [];
  let built: PlatformBuilds | undefined;
  try {
    const r = (built = await compilePlatforms(src, platforms, stage, "release", (entry) => (env = scanEnv(entry))));
    const pkg = readPackage(dirname(src.path));
    failed = r.failed;
    mkdirSync(outdir, { recursive: true });
    for (const b of r.built) {
      const windows = b.platform.startsWith("windows");
      const base = `${r.name}-${r.version}-${b.platform}`;
      const data = readFileSync(b.path);
      const archive = windows
        ? zip([{ name: `${base}/${b.exe}`, data, mode: 0o755 }])
        : tarGz([{ name: `${base}/${b.exe}`, data, mode: 0o755 }]);
      const file = `${base}${windows ? ".zip" : ".tar.gz"}`;
      writeFileSync(join(outdir, file), archive);
      archives.push(join(outdir, file));
      sums.push(`${sha256(archive)}  ${file}\n`);
      // The same executable as an MCP Bundle of its own: what the MCP Registry lists (one mcpb package per platform).
      const mcpb = mcpbArchive(r, [b], env, pkg).data;
      writeFileSync(join(outdir, `${base}.mcpb`), mcpb);
      sums.push(`${sha256(mcpb)}  ${base}.mcpb\n`);
      packages.push({ file: `${base}.mcpb`, sha256: sha256(mcpb) });
      process.stderr.write(
        `mcpbin: release: ${b.platform} → ${displayPath(join(outdir, file))} (${(archive.length / 1048576).toFixed(1)} MiB)\n`,
      );
    }
  } finally {
    removeTempDir(stage);
  }
  const sumsFile = join(outdir, "SHA256SUMS");
  writeFileSync(sumsFile, sums.join(""));
  const serverJsonFile =
    built && packages.length
      ? writeServerJson(outdir, built, packages, env, readPackage(dirname(src.path)), o, "release")
      : undefined;
  if (failed.length) {
    throw new CliError(
      `release: could not compile for ${failed.join(", ")} (see above); ${archives.length} archive(s) and SHA256SUMS were written to ${displayPath(outdir)}`,
    );
  }
  return { archives, sums: sumsFile, ...(serverJsonFile ? { serverJson: serverJsonFile } : {}) };
}
