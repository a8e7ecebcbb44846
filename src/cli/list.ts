/** @module mcpbin list: the tools a config or script serves, as a table or JSON, with their source. */
import { basename, dirname } from "node:path";
import { displayPath } from "../config/load.ts";
import { Registry } from "../server/registry.ts";
import type { Tool } from "../tools/types.ts";
import { sourcePath } from "../loader/collect.ts";
import type { Source } from "./source.ts";

/** One tool as `mcpbin list --json` prints it. */
export interface ToolRow {
  name: string;
  title: string | null;
  description: string;
  parameters: string[];
  required: string[];
  /**
   * `{ dir, file }`: for project tools the module, its directory relative to the config file; for a
   * script's tools the script, its directory relative to the working directory (absolute outside it).
   */
  source: { dir: string; file: string };
}

/**
 * The list row of a tool.
 * @param t - the tool.
 * @param script - the script that served it, when it has no module of its own (a script's tools).
 */
export function toolRow(t: Tool, script: string): ToolRow {
  const props = t.inputSchema.properties;
  const required = t.inputSchema.required;
  return {
    name: t.name,
    title: t.definition.title ?? t.definition.annotations?.title ?? null,
    description: t.definition.description,
    parameters: props && typeof props === "object" ? Object.keys(props) : [],
    required: Array.isArray(required) ? required.map(String) : [],
    source: t.source
      ? { dir: t.source.dir, file: t.source.file }
      : { dir: dirname(displayPath(script)), file: basename(script) },
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
  const rows = [...registry.tools.values()].map((t) => toolRow(t, src.path));
  const c = registry.content;
  const where = (s: { dir: string; file: string } | undefined) =>
    s ? (s.dir === "." || s.dir === "" ? s.file : `${s.dir}/${s.file}`) : displayPath(src.path);
  // Skills (the skills extension): one row each; their files are not repeated as resources.
  const skillSet = (
    registry as {
      skills?: {
        entries: readonly { uri: string; frontmatter: Record<string, unknown>; resources: readonly unknown[] }[];
      };
    }
  ).skills;
  const skills = (skillSet?.entries ?? []).map((e) => ({
    uri: e.uri,
    name: String(e.frontmatter.name),
    description: String(e.frontmatter.description),
    files: e.resources.length,
  }));
  const resources = c.fixedEntries
    .filter((e) => !e.uri.startsWith("skill://"))
    .map((e) => ({
      uri: e.uri,
      name: e.listing.name,
      mimeType: e.listing.mimeType ?? null,
      source: e.from?.source ?? null,
    }));
  const templates = c.templates.map((t) => ({
    uriTemplate: t.uriTemplate,
    name: t.name,
    mimeType: t.definition.mimeType ?? null,
    source: t.source ?? null,
  }));
  const prompts = [...c.prompts.values()].map((p) => ({
    name: p.name,
    arguments: p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)),
    source: p.source ?? null,
  }));
  // Upstreams are started only when the server runs: named here (never their env, headers or args), so a
  // hub of `tools: []` does not read as an empty server.
  const upstreams = Object.entries(registry.options.upstreams ?? {}).map(([name, u]) => ({
    name,
    transport: u.url !== undefined ? "http" : "stdio",
    start: u.disabled ? "disabled" : (u.start ?? "eager"),
  }));
  if (json) {
    const extra = {
      ...(resources.length ? { resources } : {}),
      ...(templates.length ? { resourceTemplates: templates } : {}),
      ...(prompts.length ? { prompts } : {}),
      ...(skills.length ? { skills } : {}),
      ...(upstreams.length ? { upstreams } : {}),
    };
    return (
      JSON.stringify(
        { name: registry.options.name, version: registry.options.version, tools: rows, ...extra },
        null,
        2,
      ) + "\n"
    );
  }
  const script = displayPath(src.path);
  const table = [
    ["NAME", "TITLE", "PARAMETERS", "REQUIRED", "SOURCE"],
    ...[...registry.tools.values()].map((t, i) => {
      const r = rows[i]!;
      return [
        r.name,
        r.title ?? "-",
        r.parameters.join(", ") || "-",
        r.required.join(", ") || "-",
        t.source ? sourcePath(t) : script,
      ];
    }),
  ];
  const n = registry.tools.size;
  const sections = [renderTable(table)];
  if (resources.length)
    sections.push(
      renderTable([
        ["RESOURCE", "NAME", "MIME TYPE", "SOURCE"],
        ...resources.map((r) => [r.uri, r.name, r.mimeType ?? "-", where(r.source ?? undefined)]),
      ]),
    );
  if (templates.length)
    sections.push(
      renderTable([
        ["TEMPLATE", "NAME", "MIME TYPE", "SOURCE"],
        ...templates.map((t) => [t.uriTemplate, t.name, t.mimeType ?? "-", where(t.source ?? undefined)]),
      ]),
    );
  if (prompts.length)
    sections.push(
      renderTable([
        ["PROMPT", "ARGUMENTS", "SOURCE"],
        ...prompts.map((p) => [p.name, p.arguments.join(", ") || "-", where(p.source ?? undefined)]),
      ]),
    );
  if (skills.length)
    sections.push(
      renderTable([
        ["SKILL", "URI", "FILES", "DESCRIPTION"],
        ...skills.map((s) => [s.name, s.uri, String(s.files), s.description]),
      ]),
    );
  if (upstreams.length)
    sections.push(
      renderTable([["UPSTREAM", "TRANSPORT", "START"], ...upstreams.map((u) => [u.name, u.transport, u.start])]) +
        "\n(their tools join when the server runs; mcpbin list shows the own tools only)",
    );
  const own = upstreams.length ? ` of its own, ${upstreams.length} upstream${upstreams.length === 1 ? "" : "s"}` : "";
  return `${registry.options.name} ${registry.options.version}: ${n} tool${n === 1 ? "" : "s"}${own}\n\n${sections.join("\n\n")}\n`;
}

/** Columns padded to their widest cell, two spaces apart (the last column unpadded). */
function renderTable(table: string[][]): string {
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  return table
    .map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  "))
    .join("\n");
}
