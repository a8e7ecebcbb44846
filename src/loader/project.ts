/** @module A whole project: config + discovered modules → the tools and server options it serves. */
import { logLine } from "../runtime/log-name.ts";
import type { McpbinConfig } from "../config/define.ts";
import { displayPath, firstLine, loadConfig, type LoadedConfig } from "../config/load.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import type { Tool } from "../tools/types.ts";
import {
  checkDuplicates,
  collectContent,
  collectTools,
  contentNames,
  filterContent,
  filterTools,
  LoaderError,
  type LoadedModule,
} from "./collect.ts";
import { Catalog } from "../content/catalog.ts";
import { ContentDefinitionError } from "../content/common.ts";
import { discoverModules, type ModuleRef } from "./discover.ts";

/** Where loader warnings go by default: one `mcpbin: warning:` line each on stderr. */
export function warnToStderr(message: string): void {
  logLine(`warning: ${message}`);
}

/**
 * Turns a checked config and its loaded modules into server options: collects the tools, applies
 * include/exclude, refuses duplicates. Used from source and inside a compiled executable alike.
 * @param config - the checked config.
 * @param label - the config file, for messages.
 * @param modules - the tool modules in load order.
 * @param warn - receives warnings (a module without tools, a pattern that matches nothing).
 * @returns the options for `serve()`, with the active tools.
 * @throws LoaderError when two active tools share a name, or nothing is active.
 */
export function assemble(
  config: McpbinConfig,
  label: string,
  modules: readonly LoadedModule[],
  warn: (message: string) => void,
  dir?: string,
): ServerOptions {
  const { tools: _paths, include, exclude, ...rest } = config;
  // Skill folders are relative to the config file (an executable's entry hands over the folder it was built from).
  const path = (): typeof import("node:path") => require("node:path") as typeof import("node:path"); // on first use: a start evaluates no Node built-in
  const options =
    rest.skills && dir
      ? {
          ...rest,
          skills: rest.skills.map((s) => (typeof s === "string" && !path().isAbsolute(s) ? path().resolve(dir, s) : s)),
        }
      : rest;
  const all = collectTools(modules, warn);
  const content = collectContent(modules);
  const active = filterTools(
    all,
    include,
    exclude,
    warn,
    [...content.resources, ...content.prompts].flatMap(contentNames),
  );
  const activeContent = filterContent(content, include, exclude);
  checkDuplicates(active, label);
  try {
    // The duplicate guard of resources, templates and prompts, with both sources named.
    new Catalog(activeContent);
  } catch (e) {
    if (e instanceof ContentDefinitionError)
      throw new LoaderError(`${e.message.replace("in the config", `in ${label}`)}`);
    throw e;
  }
  const served = active.length + activeContent.resources.length + activeContent.prompts.length;
  // A project may front only other servers (`upstreams`) or live sessions: their tools come at run time.
  if (served === 0 && config.upstreams === undefined && config.sessions === undefined) {
    throw new LoaderError(
      `${label}: no tool, resource or prompt is active${all.length ? " after include/exclude" : ""}, so the server would serve nothing; check "tools"${all.length ? ', "include" and "exclude"' : ""}`,
    );
  }
  return {
    ...options,
    tools: active,
    ...(activeContent.resources.length ? { resources: activeContent.resources } : {}),
    ...(activeContent.prompts.length ? { prompts: activeContent.prompts } : {}),
  };
}

/** A project loaded from source. */
export interface LoadedProject extends LoadedConfig {
  /** The discovered modules, in load order. */
  readonly modules: readonly ModuleRef[];
  /** Options for `serve()`; `tools` holds the active tools, each with its `source` (resources and prompts too). */
  readonly options: Omit<ServerOptions, "tools"> & { readonly tools: readonly Tool[] };
}

/**
 * Loads a project from source: the config file, then every tool module it names.
 * @param configPath - the config file.
 * @param warn - receives warnings; by default stderr.
 * @returns the project.
 * @throws ConfigError for a config mistake; LoaderError for a module that fails to import (naming the
 *   file and the cause) or a duplicate tool name.
 */
export async function loadProject(
  configPath: string,
  warn: (message: string) => void = warnToStderr,
): Promise<LoadedProject> {
  const loaded = await loadConfig(configPath);
  const refs = discoverModules(loaded.config.tools, loaded.dir, warn);
  const modules: LoadedModule[] = [];
  for (const ref of refs) {
    let exports: Record<string, unknown>;
    try {
      exports = (await import(ref.path)) as Record<string, unknown>;
    } catch (e) {
      throw new LoaderError(`${displayPath(ref.path)} failed to load: ${firstLine(e)}`);
    }
    modules.push({ ref, exports });
  }
  const options = assemble(loaded.config, loaded.label, modules, warn, loaded.dir) as LoadedProject["options"];
  return { ...loaded, modules: refs, options };
}
