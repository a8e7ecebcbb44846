/** @module mcpbin build for a project: load it from source (warnings, errors), generate the static entry, compile. */
import { writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { CliError } from "./errors.ts";
import { entrySource } from "../build/entry.ts";
import type { ModuleRef } from "../loader/discover.ts";
import { loadProject, type LoadedProject } from "../loader/project.ts";
import { compile } from "./build.ts";
import { scanEnv, type EnvVar } from "./env-scan.ts";
import { removeTempDir, tempDir } from "../build/temp-dirs.ts";

/** A file name made from a server name (`my server!` → `my-server`). */
export function executableName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "") || "server";
}

/** A generated entry on disk, with the project it was made from. */
export interface PreparedEntry {
  readonly entry: string;
  readonly project: LoadedProject;
  /** The modules the entry imports (those contributing an active tool). */
  readonly modules: readonly ModuleRef[];
  /** Removes the temporary directory. */
  cleanup(): void;
}

/**
 * Loads a project from source (so a broken module or a duplicate fails with the loader's message)
 * and writes an entry importing every discovered module that contributes an active tool statically
 * into a temporary directory.
 * @param configPath - the config file.
 * @throws ConfigError or LoaderError.
 */
export async function prepareEntry(configPath: string): Promise<PreparedEntry> {
  const project = await loadProject(configPath);
  const dir = tempDir("mcpbin-entry-");
  const entry = join(dir, "entry.ts");
  // Modules that contribute no active tool, resource or prompt (all filtered out) are left out of the executable.
  const o = project.options;
  const used = new Set(
    [...o.tools, ...(o.resources ?? []).flat(), ...(o.prompts ?? []).flat()]
      .map((t) => (t as { source?: { dir: string; file: string } }).source)
      .map((s) => `${s?.dir}\0${s?.file}`),
  );
  const modules = project.modules.filter((m) => used.has(`${m.dir}\0${m.file}`));
  writeFileSync(entry, entrySource(project.file, basename(project.file), modules));
  return { entry, project, modules, cleanup: () => removeTempDir(dir) };
}

/**
 * Fails the build when an upstream's `command` is a relative path (`./server`): a client starts the
 * executable from a working directory of its own, where the path means something else (or nothing).
 * Resolving it silently against the config's folder would bake in a path the author never wrote, so the
 * author is asked for an absolute one (a program name found on PATH, such as `npx`, is fine).
 * @param upstreams - the config's (or script's) `upstreams`, as written.
 * @param file - the config file or script (absolute), for the suggested path.
 * @param label - how the config is named in messages.
 * @throws CliError naming the upstream, the path and the absolute path it would mean from the config's folder.
 */
export function relativeCommands(upstreams: Readonly<Record<string, unknown>>, file: string, label: string): void {
  for (const [name, raw] of Object.entries(upstreams)) {
    const command = typeof raw === "object" && raw !== null ? (raw as { command?: unknown }).command : undefined;
    if (typeof command !== "string" || isAbsolute(command) || command.startsWith("${") || !/[\\/]/.test(command))
      continue;
    throw new CliError(
      `${label}: upstream "${name}": "command" is a relative path (${JSON.stringify(command)}), which a client would resolve from its own working directory; give an absolute path, such as ${JSON.stringify(resolve(dirname(file), command))}`,
    );
  }
}

/**
 * Builds one executable from a config: {@link prepareEntry}, then `compile()`.
 * @param configPath - the config file.
 * @param o - `outfile` (default `dist/<name>` in the working directory) and Bun `target`.
 * @returns the executable's absolute path, the loaded project, the embedded modules and the environment
 *   variables their code reads.
 * @throws ConfigError, LoaderError, or CliError when the compiler fails.
 */
export async function buildProject(
  configPath: string,
  o: { outfile?: string; target?: string; smol?: boolean },
): Promise<{ path: string; project: LoadedProject; modules: readonly ModuleRef[]; env: EnvVar[] }> {
  const prepared = await prepareEntry(configPath);
  try {
    relativeCommands(prepared.project.options.upstreams ?? {}, prepared.project.file, prepared.project.label);
    const outfile = resolve(o.outfile ?? join("dist", executableName(prepared.project.config.name)));
    const path = await compile({
      entry: prepared.entry,
      outfile,
      target: o.target,
      smol: o.smol,
      label: prepared.project.label,
    });
    return { path, project: prepared.project, modules: prepared.modules, env: scanEnv(prepared.entry) };
  } finally {
    prepared.cleanup();
  }
}
