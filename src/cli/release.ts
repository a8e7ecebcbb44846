/** @module mcpbin release: one executable per platform (cross-compiled), archived, plus SHA256SUMS. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { displayPath } from "../config/load.ts";
import { bunExecutable, compile, recordBytecodeOrder } from "./build.ts";
import { CliError } from "./errors.ts";
import { inspectScript, recordBuildData } from "./precompute.ts";
import { executableName, prepareEntry } from "./project-build.ts";
import type { Source } from "./source.ts";
import { sha256, tarGz, zip } from "./archive.ts";

/** The platforms a release covers by default; each is compiled with the Bun target `bun-<platform>`. */
export const RELEASE_PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;

/** What a release produced. */
export interface ReleaseResult {
  /** Absolute paths of the archives. */
  readonly archives: string[];
  /** Absolute path of SHA256SUMS. */
  readonly sums: string;
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
export async function release(src: Source, o: { targets?: readonly string[]; outdir?: string }): Promise<ReleaseResult> {
  const platforms = o.targets ?? RELEASE_PLATFORMS;
  for (const p of platforms) {
    if (!(RELEASE_PLATFORMS as readonly string[]).includes(p)) throw new CliError(`release: unknown platform "${p}"; expected some of ${RELEASE_PLATFORMS.join(",")}`, 2);
  }
  if (platforms.length === 0) throw new CliError(`release: --targets is empty; expected some of ${RELEASE_PLATFORMS.join(",")}`, 2);
  let entry: string;
  let name: string;
  let version: string;
  let label: string | undefined;
  let cleanup = () => {};
  let schemas: Readonly<Record<string, string>> | undefined;
  let views: Readonly<Record<string, string>> | undefined;
  if (src.kind === "config") {
    const prepared = await prepareEntry(src.path);
    ({ entry, cleanup } = prepared);
    label = prepared.project.label;
    name = executableName(prepared.project.config.name);
    version = prepared.project.config.version;
    ({ schemas, views } = await recordBuildData(entry, bunExecutable())); // once here, not once per platform in compile()
  } else {
    // One check run: what the executable would refuse at start (a duplicate tool, a bad option) fails
    // here instead, and the JSON Schemas it records serve every platform's build.
    const checked = await inspectScript(resolve(src.path), bunExecutable());
    if ("notServer" in checked) throw new CliError(checked.notServer);
    entry = src.path;
    name = executableName(checked.name);
    version = checked.version;
    schemas = checked.schemas;
    views = checked.views;
  }
  const outdir = resolve(o.outdir ?? join("dist", "release"));
  mkdirSync(outdir, { recursive: true });
  const stage = mkdtempSync(join(tmpdir(), "mcpbin-release-"));
  const archives: string[] = [];
  const sums: string[] = [];
  const failed: string[] = [];
  let order: { file: string; cleanup(): void } | undefined;
  try {
    // One bytecode-order profile for every platform: recorded from a build for this machine (the
    // profile names functions, not machine code), so released executables start as fast as a local build.
    try {
      const host = await compile({ entry, outfile: join(stage, "host", name), label, schemas, views, profile: false });
      order = await recordBytecodeOrder(host);
    } catch {
      // no profile: the platforms' builds stand without one
    }
    for (const platform of platforms) {
      const windows = platform.startsWith("windows");
      const exe = `${name}${windows ? ".exe" : ""}`;
      const base = `${name}-${version}-${platform}`;
      let built: string;
      try {
        built = await compile({ entry, outfile: join(stage, platform, exe), target: `bun-${platform}`, label, schemas, views, bytecodeOrder: order?.file });
      } catch (e) {
        process.stderr.write(`mcpbin: release: ${platform}: ${(e as Error).message} (is the bun-${platform} runtime reachable in the npm registry?)\n`);
        failed.push(platform);
        continue;
      }
      const data = readFileSync(built);
      const archive = windows ? zip([{ name: `${base}/${exe}`, data, mode: 0o755 }]) : tarGz([{ name: `${base}/${exe}`, data, mode: 0o755 }]);
      const file = `${base}${windows ? ".zip" : ".tar.gz"}`;
      writeFileSync(join(outdir, file), archive);
      archives.push(join(outdir, file));
      sums.push(`${sha256(archive)}  ${file}\n`);
      process.stderr.write(`mcpbin: release: ${platform} → ${displayPath(join(outdir, file))} (${(archive.length / 1048576).toFixed(1)} MiB)\n`);
    }
  } finally {
    order?.cleanup();
    rmSync(stage, { recursive: true, force: true });
    cleanup();
  }
  const sumsFile = join(outdir, "SHA256SUMS");
  writeFileSync(sumsFile, sums.join(""));
  if (failed.length) {
    throw new CliError(`release: could not compile for ${failed.join(", ")} (see above); ${archives.length} archive(s) and SHA256SUMS were written to ${displayPath(outdir)}`);
  }
  return { archives, sums: sumsFile };
}
