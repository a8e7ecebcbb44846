/** @module resources/templates/list: the server's resource templates, one page at a time (MCP server/resources). */
import { projectTemplate } from "../../protocol/project-content.ts";
import { STATIC_LIST_CACHE } from "../../content/catalog.ts";
import { LIST_PARAMS, listPage, type ListParams } from "../list-page.ts";
import type { MethodSpec } from "../method.ts";

/** The `resources/templates/list` entry. */
export const resourcesTemplatesList: MethodSpec<ListParams, Record<string, unknown>> = {
  name: "resources/templates/list",
  eras: ["legacy", "modern"],
  capability: "resources",
  params: LIST_PARAMS,
  handle(p, ctx) {
    const registry = ctx.connection.registry;
    const f = ctx.features;
    return listPage("resources/templates/list", registry.content.templates, (t) => t.uriTemplate, "resourceTemplates", (t) => projectTemplate(t.uriTemplate, t.definition, f), p, registry.options.pageSize, STATIC_LIST_CACHE, f);
  },
};
