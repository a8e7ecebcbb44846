/** @module mcpbin list: the tools a config or script serves, as a table or JSON, with their source. */
import { displayPath } from "../config/load.ts";
import { Registry } from "../server/registry.ts";
import type { Tool } from "../tool.ts";
import { sourcePath } from "../loader/collect.ts";
import type { Source } from "./source.ts";

/** One tool as `mcpbin list --json` prints it. */
export interface ToolRow {
  name: string;
  title: string | null;
  description: string;
  parameters: string[];
  required: string[];
  /** `{ dir, file }` relative to the config file for project tools; null for a script's tools. */
  source: { dir: string; file: string } | null;
}

/** The list row of a tool. */
export function toolRow(t: Tool): ToolRow {
  const props = t.inputSchema.properties;
  const required = t.inputSchema.required;
  return {
    name: t.name,
    title: t.definition.title ?? t.definition.annotations?.title ?? null,
    description: t.definition.description,
    parameters: props && typeof props === "object" ? Object.keys(props) : [],
    required: Array.isArray(required) ? required.map(String) : [],
    source: t.source ? { dir: t.source.dir, file: t.source.file } : null,
  };
}

/**
 * Renders the tools of a registry.
 * @param registry - the server as it would run (duplicates already refused).
 * @param src - where the tools came from (a script's tools show the script as their source).
 * @param json - JSON instead of a table.
 * @returns the text for stdout.
 */
export function renderList(registry: Registry, src: Source, json: boolean): string {
  const rows = [...registry.tools.values()].map(toolRow);
  if (json) return JSON.stringify({ name: registry.options.name, version: registry.options.version, tools: rows }, null, 2) + "\n";
  const script = displayPath(src.path);
  const table = [
    ["NAME", "TITLE", "PARAMETERS", "REQUIRED", "SOURCE"],
    ...[...registry.tools.values()].map((t, i) => {
      const r = rows[i]!;
      return [r.name, r.title ?? "-", r.parameters.join(", ") || "-", r.required.join(", ") || "-", t.source ? sourcePath(t) : script];
    }),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const lines = table.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  "));
  const n = registry.tools.size;
  return `${registry.options.name} ${registry.options.version}: ${n} tool${n === 1 ? "" : "s"}\n\n${lines.join("\n")}\n`;
}
