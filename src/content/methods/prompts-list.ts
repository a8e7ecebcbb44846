/** @module prompts/list: the server's prompts, one page at a time (MCP server/prompts). */
import { listingOf, projectPrompt } from "../project.ts";
import { PRIVATE_LIST_CACHE, PRIVATE_NO_CACHE, STATIC_LIST_CACHE } from "../../shared/cache.ts";
import type { PromptArgument } from "../prompt.ts";
import { missingScopes } from "../../shared/auth.ts";
import type { Listing } from "../project.ts";
import { LIST_PARAMS, listPage, type ListParams } from "../../server/list-page.ts";
import type { MethodSpec } from "../../server/method.ts";

/** The `prompts/list` entry. */
export const promptsList: MethodSpec<ListParams, Record<string, unknown>> = {
  name: "prompts/list",
  eras: ["legacy", "modern"],
  capability: "prompts",
  waitsForUpstreams: true,
  params: LIST_PARAMS,
  handle(p, ctx) {
    const registry = ctx.connection.registry;
    const f = ctx.features;
    // An OAuth caller sees the prompts its scopes allow (docs/auth.md).
    const own = [...registry.content.prompts.values()]
      .filter((x) => missingScopes(ctx.auth, x.definition.scopes).length === 0)
      .map((x) => ({ name: x.name, listing: x.definition as Listing, args: x.arguments }));
    const providers = registry.content.providers.filter((x) => x.serves.prompts);
    const page = (
      items: readonly { name: string; listing: Listing; args: readonly PromptArgument[] }[],
      cache: typeof STATIC_LIST_CACHE,
    ) =>
      listPage(
        "prompts/list",
        items,
        (x) => x.name,
        "prompts",
        (x) => projectPrompt(x.listing, x.args, f),
        p,
        registry.options.pageSize,
        cache,
        f,
      );
    if (providers.length === 0) return page(own, registry.content.scoped ? PRIVATE_LIST_CACHE : STATIC_LIST_CACHE);
    // A provider's prompts (an upstream's) are asked for each time: private, never cached.
    return Promise.all(providers.map((x) => x.listPrompts(ctx))).then((lists) => {
      const seen = new Set(own.map((x) => x.name));
      const all = [...own];
      for (const w of lists.flat()) {
        if (typeof w?.name !== "string" || seen.has(w.name)) continue;
        seen.add(w.name);
        const args = Array.isArray(w.arguments)
          ? (w.arguments as PromptArgument[]).filter((a) => typeof a?.name === "string")
          : [];
        all.push({ name: w.name, listing: listingOf(w) as unknown as Listing, args });
      }
      return page(all, PRIVATE_NO_CACHE);
    });
  },
};
