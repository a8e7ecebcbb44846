/** @module resources/templates/list: the server's resource templates, one page at a time (MCP server/resources). */
import { listingOf, projectTemplate } from "../project.ts";
import { PRIVATE_LIST_CACHE, PRIVATE_NO_CACHE, STATIC_LIST_CACHE } from "../../shared/cache.ts";
import { missingScopes } from "../../shared/auth.ts";
import type { Listing } from "../project.ts";
import { LIST_PARAMS, listPage, type ListParams } from "../../server/list-page.ts";
import type { MethodSpec } from "../../server/method.ts";

/** The `resources/templates/list` entry. */
export const resourcesTemplatesList: MethodSpec<ListParams, Record<string, unknown>> = {
  name: "resources/templates/list",
  eras: ["legacy", "modern"],
  capability: "resources",
  waitsForUpstreams: true,
  params: LIST_PARAMS,
  handle(p, ctx) {
    // An OAuth caller sees the templates its scopes allow (docs/auth.md).
    const registry = ctx.connection.registry;
    const f = ctx.features;
    const own = registry.content.templates
      .filter((t) => missingScopes(ctx.auth, t.definition.scopes).length === 0)
      .map((t) => ({ uriTemplate: t.uriTemplate, listing: t.definition as Listing }));
    const providers = registry.content.providers.filter((x) => x.serves.resources);
    const page = (items: readonly { uriTemplate: string; listing: Listing }[], cache: typeof STATIC_LIST_CACHE) =>
      listPage(
        "resources/templates/list",
        items,
        (t) => t.uriTemplate,
        "resourceTemplates",
        (t) => projectTemplate(t.uriTemplate, t.listing, f),
        p,
        registry.options.pageSize,
        cache,
        f,
      );
    if (providers.length === 0) return page(own, registry.content.scoped ? PRIVATE_LIST_CACHE : STATIC_LIST_CACHE);
    // A provider's templates (an upstream's) are asked for each time: private, never cached.
    return Promise.all(providers.map((x) => x.listTemplates(ctx))).then((lists) => {
      const seen = new Set(own.map((t) => t.uriTemplate));
      const all = [...own];
      for (const w of lists.flat()) {
        if (typeof w?.uriTemplate !== "string" || typeof w.name !== "string" || seen.has(w.uriTemplate)) continue;
        seen.add(w.uriTemplate);
        all.push({ uriTemplate: w.uriTemplate, listing: listingOf(w) as unknown as Listing });
      }
      return page(all, PRIVATE_NO_CACHE);
    });
  },
};
