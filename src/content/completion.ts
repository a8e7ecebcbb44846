/** @module Completion of content arguments: the completer of a prompt argument or a template variable, and the values one response carries (MCP server/utilities/completion). */
import type { Catalog } from "./catalog.ts";
import type { ContentContext } from "./common.ts";

/** The most completion values one response carries (MCP CompleteResult.values maxItems). */
export const MAX_COMPLETIONS = 100;

/**
 * The completer of one argument: a template's variable (`ref/resource` by its template text, or by a
 * URI it matches) or a prompt's argument (its `complete`, else a picklist's options).
 * @param catalog - the server's content.
 * @param ref - the reference of the request (`ref/prompt` by name, `ref/resource` by URI or template text).
 * @param argument - the argument's (variable's) name.
 * @returns the completer, or undefined when there is none; null when the reference names nothing.
 */
export function completerOf(
  catalog: Catalog,
  ref: { type: string; uri?: string; name?: string },
  argument: string,
):
  | ((
      value: string,
      ctx: ContentContext & { arguments: Readonly<Record<string, string>> },
    ) => Promise<readonly string[]>)
  | undefined
  | null {
  if (ref.type === "ref/prompt") {
    const p = typeof ref.name === "string" ? catalog.prompts.get(ref.name) : undefined;
    if (!p) return null;
    const fn = p.definition.complete?.[argument];
    if (fn) return async (value, ctx) => fn(value, ctx);
    const options = p.options[argument];
    if (options) return async (value) => options.filter((o) => o.startsWith(value));
    return undefined;
  }
  if (ref.type === "ref/resource") {
    const t =
      catalog.templates.find((x) => x.uriTemplate === ref.uri) ??
      (typeof ref.uri === "string" ? catalog.templates.find((x) => x.match(ref.uri!)) : undefined);
    if (!t) return catalog.resources.has(ref.uri ?? "") ? undefined : null;
    const fn = t.definition.complete?.[argument];
    return fn ? async (value, ctx) => fn(value, ctx) : undefined;
  }
  return null;
}

/**
 * At most {@link MAX_COMPLETIONS} values, with `total` and `hasMore` when there were more (MCP
 * server/utilities/completion).
 * @throws Error when the completer returned something other than an array of strings.
 */
export function completionOf(values: unknown): { values: string[]; total?: number; hasMore?: boolean } {
  if (!Array.isArray(values) || values.some((x) => typeof x !== "string"))
    throw new Error("a completer must return an array of strings");
  if (values.length <= MAX_COMPLETIONS) return { values: values as string[] };
  return { values: (values as string[]).slice(0, MAX_COMPLETIONS), total: values.length, hasMore: true };
}
