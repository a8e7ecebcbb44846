/** @module Collecting the tools a set of loaded modules export: provenance, include/exclude globs, duplicates. No file system. */
import { isTool, type Tool } from "../tool.ts";
import type { ModuleRef } from "./discover.ts";

/** A tool module and what it exports. */
export interface LoadedModule {
  readonly ref: Pick<ModuleRef, "dir" | "file">;
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
      if (isTool(x)) {
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
      warn(`${where} exports no tool (export a value made by tool(), or an array of them; helpers belong in files named _*.ts)`);
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
export function filterTools(tools: readonly Tool[], include: readonly string[] | undefined, exclude: readonly string[] | undefined, warn: (message: string) => void): Tool[] {
  const matcher = (list: readonly string[], key: string) =>
    list.map((pattern) => {
      const g = new Bun.Glob(pattern);
      if (!tools.some((t) => g.match(t.name))) warn(`${key} pattern "${pattern}" matches no tool (tools: ${tools.map((t) => t.name).join(", ") || "none"})`);
      return g;
    });
  const inc = include ? matcher(include, "include") : undefined;
  const exc = exclude ? matcher(exclude, "exclude") : [];
  return tools.filter((t) => (inc === undefined || inc.some((g) => g.match(t.name))) && !exc.some((g) => g.match(t.name)));
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
