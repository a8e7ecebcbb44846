/** @module tools/list: every tool as the version in force lists it, serialized once per version (MCP server/tools). */
import { ProjectedJson } from "../../protocol/project.ts";
import { projectTool } from "../project.ts";
import { toolsListJson } from "../list-json.ts";
import { PRIVATE_LIST_CACHE, STATIC_LIST_CACHE } from "../../shared/cache.ts";

import { LIST_PARAMS, listPage, type ListParams } from "../../server/list-page.ts";
import type { MethodSpec } from "../../server/method.ts";
import { requestFeatures } from "../../server/register.ts";
import { missingScopes } from "../../shared/auth.ts";

/**
 * The `tools/list` entry: the whole list, serialized once per version, when it fits one page (the
 * server's `pageSize`, default all); else one page with a stateless cursor (src/protocol/cursor.ts).
 */
export const toolsList: MethodSpec<ListParams, ProjectedJson | Record<string, unknown>> = {
  name: "tools/list",
  eras: ["legacy", "modern"],
  capability: "tools",
  waitsForUpstreams: true,
  cacheable: true,
  params: LIST_PARAMS,
  handle(p, ctx) {
    const registry = ctx.connection.registry;
    const cursor = p?.cursor;
    const pageSize = registry.options.pageSize;
    const f = requestFeatures(ctx);
    const auth = ctx.auth;
    if (auth?.scopes !== undefined && registry.scopedTools) {
      // An OAuth caller sees the tools its scopes allow (docs/auth.md): a list of its own, never shared.
      const visible = registry.listedTools(f).filter((t) => missingScopes(auth, t.definition.scopes).length === 0);
      return listPage(
        "tools/list",
        visible,
        (t) => t.name,
        "tools",
        (t) => projectTool(t, f),
        p,
        pageSize,
        PRIVATE_LIST_CACHE,
        f,
      );
    }
    if (
      (cursor === undefined || cursor === "" || cursor === null) &&
      (pageSize === undefined || registry.tools.size <= pageSize)
    ) {
      return new ProjectedJson(toolsListJson(registry, f));
    }
    // A list with app-only tools differs between clients: not for shared caches.
    return listPage(
      "tools/list",
      registry.listedTools(f),
      (t) => t.name,
      "tools",
      (t) => projectTool(t, f),
      p,
      pageSize,
      registry.appOnlyTools || registry.scopedTools ? PRIVATE_LIST_CACHE : STATIC_LIST_CACHE,
      f,
    );
  },
};
