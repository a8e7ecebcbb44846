/** @module resources/list: the fixed resources and what templates list, one page at a time (MCP server/resources). */
import { requestFeatures } from "../../server/register.ts";
import { projectResource } from "../project.ts";
import type { ListedEntry } from "../catalog.ts";
import type { RequestContext } from "../../server/context.ts";
import { LIST_PARAMS, listPage, type ListParams } from "../../server/list-page.ts";
import type { MethodSpec } from "../../server/method.ts";
import { missingScopes } from "../../shared/auth.ts";

function pageOf(all: readonly ListedEntry[], p: ListParams, ctx: RequestContext): Record<string, unknown> {
  const registry = ctx.connection.registry;
  // An OAuth caller sees what its scopes allow (docs/auth.md).
  const entries =
    registry.content.scoped && ctx.auth?.scopes !== undefined
      ? all.filter((e) => missingScopes(ctx.auth, e.from?.definition.scopes).length === 0)
      : all;
  const f = requestFeatures(ctx);
  return listPage(
    "resources/list",
    entries,
    (e) => e.uri,
    "resources",
    (e) => projectResource(e.uri, e.listing, f),
    p,
    registry.options.pageSize,
    registry.content.listCache,
    f,
  );
}

/** The `resources/list` entry. */
export const resourcesList: MethodSpec<ListParams, Record<string, unknown>> = {
  name: "resources/list",
  eras: ["legacy", "modern"],
  capability: "resources",
  waitsForUpstreams: true,
  params: LIST_PARAMS,
  handle(p, ctx) {
    const c = ctx.connection.registry.content;
    if (!c.dynamicList) return pageOf(c.fixedEntries, p, ctx);
    return c.listed(ctx).then((entries) => pageOf(entries, p, ctx));
  },
};
