/** @module tools/list: every tool as the version in force lists it, serialized once per version (MCP server/tools). */
import * as v from "valibot";
import { ProjectedJson, projectTool } from "../../protocol/project.ts";
import { STATIC_LIST_CACHE } from "../../content/catalog.ts";
import { listPage } from "../list-page.ts";
import type { MethodSpec } from "../method.ts";

const params = v.nullish(v.looseObject({ cursor: v.optional(v.unknown()) }));

/**
 * The `tools/list` entry: the whole list, serialized once per version, when it fits one page (the
 * server's `pageSize`, default all); else one page with a stateless cursor (src/protocol/cursor.ts).
 */
export const toolsList: MethodSpec<{ cursor?: unknown } | null | undefined, ProjectedJson | Record<string, unknown>> = {
  name: "tools/list",
  eras: ["legacy", "modern"],
  capability: "tools",
  cacheable: true,
  params,
  handle(p, ctx) {
    const registry = ctx.connection.registry;
    const cursor = p?.cursor;
    const pageSize = registry.options.pageSize;
    if ((cursor === undefined || cursor === "" || cursor === null) && (pageSize === undefined || registry.tools.size <= pageSize)) {
      return new ProjectedJson(registry.toolsListJson(ctx.features));
    }
    const f = ctx.features;
    return listPage("tools/list", [...registry.tools.values()], (t) => t.name, "tools", (t) => projectTool(t, f), p, pageSize, STATIC_LIST_CACHE, f);
  },
};
