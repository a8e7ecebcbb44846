/** @module prompts/list: the server's prompts, one page at a time (MCP server/prompts). */
import { projectPrompt } from "../../protocol/project-content.ts";
import { STATIC_LIST_CACHE } from "../../content/catalog.ts";
import { LIST_PARAMS, listPage, type ListParams } from "../list-page.ts";
import type { MethodSpec } from "../method.ts";

/** The `prompts/list` entry. */
export const promptsList: MethodSpec<ListParams, Record<string, unknown>> = {
  name: "prompts/list",
  eras: ["legacy", "modern"],
  capability: "prompts",
  params: LIST_PARAMS,
  handle(p, ctx) {
    const registry = ctx.connection.registry;
    const f = ctx.features;
    return listPage("prompts/list", [...registry.content.prompts.values()], (x) => x.name, "prompts", (x) => projectPrompt(x.definition, x.arguments, f), p, registry.options.pageSize, STATIC_LIST_CACHE, f);
  },
};
