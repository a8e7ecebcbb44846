/** @module The server's registry: its tools by name, its identity, and per-version tools/list results computed once. */
import { isTool, ToolDefinitionError, type Tool } from "../tool.ts";
import { META } from "../protocol/meta.ts";
import { completeResultJson, projectToolJson } from "../protocol/project.ts";
import { FEATURES, MODERN_VERSION, type VersionFeatures } from "../protocol/versions.ts";
import { resolveOptions, type ResolvedOptions, type ServerOptions } from "./options.ts";
import { Catalog } from "../content/catalog.ts";

/** Registry and identity of one server; shared by every session and transport. */
export class Registry {
  readonly options: ResolvedOptions;
  readonly tools: ReadonlyMap<string, Tool>;
  /** Its resources, resource templates and prompts. */
  readonly content: Catalog;
  /** `_meta` of every modern result. */
  readonly modernMeta: Record<string, unknown>;
  /** {@link modernMeta} serialized once (the direct serialization of plain text results uses it). */
  readonly modernMetaJson: string;
  readonly #listJson = new Map<string, string>();

  /**
   * @param options - server options; `tools` may nest arrays.
   * @throws ToolDefinitionError on a value that is not a tool, or two tools with one name;
   *   ContentDefinitionError on a bad or duplicate resource, template or prompt.
   */
  constructor(options: ServerOptions) {
    if (typeof options?.name !== "string" || options.name === "") throw new ToolDefinitionError('serve(): "name" must be a non-empty string');
    if (typeof options.version !== "string" || options.version === "") throw new ToolDefinitionError('serve(): "version" must be a non-empty string');
    this.options = resolveOptions(options);
    const tools = new Map<string, Tool>();
    for (const t of (options.tools ?? []).flat()) {
      if (!isTool(t)) throw new ToolDefinitionError(`serve(): every entry of "tools" must be made by tool(); got ${typeof t}`);
      const prev = tools.get(t.name);
      if (prev) {
        const where = (x: Tool) => (x.source ? ` (${x.source.file})` : "");
        // Tools from a project's modules carry their source and can be filtered in the config; a
        // script's tools are passed to serve() directly, where include/exclude does not exist.
        const fix = prev.source && t.source ? "rename one, or filter one out with include/exclude in the config" : `rename one, or pass only one of them in serve()'s "tools"`;
        throw new ToolDefinitionError(`two tools are named "${t.name}"${where(prev)}${where(t)}: ${fix}`);
      }
      tools.set(t.name, t);
    }
    this.tools = tools;
    this.content = new Catalog(options);
    this.modernMeta = { [META.serverInfo]: this.serverInfo(FEATURES.get(MODERN_VERSION)!) };
    this.modernMetaJson = JSON.stringify(this.modernMeta);
  }

  /** `serverInfo` (MCP Implementation) as one version defines it. */
  serverInfo(f: VersionFeatures): Record<string, unknown> {
    const o = this.options;
    return o.title !== undefined && f.implementationTitle ? { name: o.name, title: o.title, version: o.version } : { name: o.name, version: o.version };
  }

  /** The serialized `tools/list` result for one version, computed on first use and kept. */
  toolsListJson(f: VersionFeatures): string {
    let json = this.#listJson.get(f.version);
    if (json === undefined) {
      const tools = [...this.tools.values()].map((t) => projectToolJson(t, f)).join(",");
      json = completeResultJson(`{"tools":[${tools}]}`, f, this.modernMetaJson, true);
      this.#listJson.set(f.version, json);
    }
    return json;
  }
}
