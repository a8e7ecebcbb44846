/** @module Collecting the tools a set of loaded modules export: provenance, include/exclude globs, duplicates. No file system. */
import { isTool } from "../tools/define.ts";
import type { Tool } from "../tools/types.ts";
import { isResource, isResourceTemplate, type Resource, type ResourceTemplate } from "../content/resource.ts";
import { isPrompt, type Prompt } from "../content/prompt.ts";

/** A tool module and what it exports. */
export interface LoadedModule {
  readonly ref: { readonly dir: string; readonly file: string };
  readonly exports: Record<string, unknown>;
}

/** A mistake in a project's modules: a module that fails to load, or two tools with one name. */
export class LoaderError extends Error {
  readonly code = "LOADER";
  constructor(message: string) {
    super(message);
    this.name = "LoaderError";
  }
}

/** `dir/file` of a tool's source, for messages. */
export function sourcePath(t: Tool): string {
  const s = t.source;
  if (!s) return "(no source)";
  return s.dir === "." || s.dir === "" ? s.file : `${s.dir}/${s.file}`;
}

/**
 * Collects every tool a module exports: named exports, the default export, and arrays (nested
 * arrays too) of tools. Each tool is stamped with its source (`tool.source = { dir, file }`); one
 * tool exported twice (or by two modules) counts once, from where it was first found.
 * @param modules - in load order; within a module, exports are taken in export-name order.
 * @param warn - receives a line for a module that exports no tool.
 * @returns the tools, in that order.
 */
export function collectTools(modules: readonly LoadedModule[], warn: (message: string) => void): Tool[] {
  const seen = new Set<Tool>();
  const out: Tool[] = [];
  for (const m of modules) {
    const before = out.length;
    let reexported = 0;
    const take = (x: unknown) => {
      if (isResource(x) || isResourceTemplate(x) || isPrompt(x)) {
        reexported++; // collected by collectContent: the module is not empty
      } else if (isTool(x)) {
        if (seen.has(x)) return void reexported++;
        seen.add(x);
        x.source = { dir: m.ref.dir, file: m.ref.file };
        out.push(x);
      } else if (Array.isArray(x)) {
        for (const y of x) take(y);
      }
    };
    for (const key of Object.keys(m.exports)) take(m.exports[key]);
    if (out.length === before && reexported === 0) {
      const where = m.ref.dir === "." ? m.ref.file : `${m.ref.dir}/${m.ref.file}`;
      warn(
        `${where} exports no tool, resource or prompt (export a value made by tool(), resource(), resourceTemplate() or prompt(), or an array of them; helpers belong in files named _*.ts)`,
      );
    }
  }
  return out;
}

/**
 * Applies the config's filters by tool name: `include` keeps only matching tools, then `exclude`
 * drops matching ones. Patterns are globs (`*`, `?`, `[a-z]`, `{a,b}`; Bun.Glob).
 * @param tools - every collected tool.
 * @param include - patterns, or undefined for all.
 * @param exclude - patterns, or undefined for none.
 * @param warn - receives a line for each pattern that matches no collected tool (a typo guard).
 * @returns the active tools, in order.
 */
export function filterTools(
  tools: readonly Tool[],
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
  warn: (message: string) => void,
  otherNames: readonly string[] = [],
): Tool[] {
  const matcher = (list: readonly string[], key: string) =>
    list.map((pattern) => {
      const g = new Bun.Glob(pattern);
      if (!tools.some((t) => g.match(t.name)) && !otherNames.some((n) => g.match(n))) {
        warn(
          `${key} pattern "${pattern}" matches no tool${otherNames.length ? ", resource or prompt" : ""} (tools: ${tools.map((t) => t.name).join(", ") || "none"})`,
        );
      }
      return g;
    });
  const inc = include ? matcher(include, "include") : undefined;
  const exc = exclude ? matcher(exclude, "exclude") : [];
  return tools.filter(
    (t) => (inc === undefined || inc.some((g) => g.match(t.name))) && !exc.some((g) => g.match(t.name)),
  );
}

/**
 * Refuses two active tools with one name (no silent shadowing).
 * @param tools - the active tools.
 * @param configLabel - the config file, for the suggestion.
 * @throws LoaderError naming both source files and suggesting a filter.
 */
export function checkDuplicates(tools: readonly Tool[], configLabel: string): void {
  const byName = new Map<string, Tool>();
  for (const t of tools) {
    const prev = byName.get(t.name);
    if (prev) {
      throw new LoaderError(
        `two tools are named "${t.name}": ${sourcePath(prev)} and ${sourcePath(t)}; rename one, or leave one out in ${configLabel} ` +
          `with a filter such as exclude: ["${t.name}"] (which drops both) or by removing one path from "tools"`,
      );
    }
    byName.set(t.name, t);
  }
}

/** The resources, templates and prompts a set of modules exports. */
export interface CollectedContent {
  readonly resources: (Resource | ResourceTemplate)[];
  readonly prompts: Prompt[];
}

/**
 * Collects every resource, template and prompt the modules export (named exports, the default export,
 * arrays), stamping each with its source like {@link collectTools}; one exported twice counts once.
 * @param modules - in load order.
 */
export function collectContent(modules: readonly LoadedModule[]): CollectedContent {
  const seen = new Set<object>();
  const resources: (Resource | ResourceTemplate)[] = [];
  const prompts: Prompt[] = [];
  for (const m of modules) {
    const take = (x: unknown) => {
      if (isResource(x) || isResourceTemplate(x) || isPrompt(x)) {
        if (seen.has(x)) return;
        seen.add(x);
        x.source = { dir: m.ref.dir, file: m.ref.file };
        if (isPrompt(x)) prompts.push(x);
        else resources.push(x);
      } else if (Array.isArray(x)) {
        for (const y of x) take(y);
      }
    };
    for (const key of Object.keys(m.exports)) take(m.exports[key]);
  }
  return { resources, prompts };
}

/** The names include/exclude patterns match for content: a prompt's name; a resource's name and URI; a template's name and template. */
export function contentNames(x: Resource | ResourceTemplate | Prompt): string[] {
  if (isPrompt(x)) return [x.name];
  return isResource(x) ? [x.name, x.uri] : [x.name, x.uriTemplate];
}

/**
 * Applies include/exclude to content, as {@link filterTools} does to tools (a pattern matches a
 * {@link contentNames} entry).
 */
export function filterContent(
  c: CollectedContent,
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): CollectedContent {
  const inc = include?.map((p) => new Bun.Glob(p));
  const exc = (exclude ?? []).map((p) => new Bun.Glob(p));
  const keep = (x: Resource | ResourceTemplate | Prompt) => {
    const names = contentNames(x);
    return (
      (inc === undefined || inc.some((g) => names.some((n) => g.match(n)))) &&
      !exc.some((g) => names.some((n) => g.match(n)))
    );
  };
  return { resources: c.resources.filter(keep), prompts: c.prompts.filter(keep) };
}
