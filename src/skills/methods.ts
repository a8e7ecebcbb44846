/** @module The skills extension's methods (io.modelcontextprotocol/skills): skills/list, skills/get and resources/directory/read. */
import * as v from "valibot";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { projectResource } from "../protocol/project-content.ts";
import { cacheFields } from "../protocol/project-content.ts";
import { STATIC_LIST_CACHE } from "../content/catalog.ts";
import type { RequestContext } from "../server/context.ts";
import { LIST_PARAMS, listPage, type ListParams } from "../server/list-page.ts";
import type { MethodSpec } from "../server/method.ts";
import { lazySchema } from "../runtime/once.ts";
import type { SkillSet } from "./skill-set.ts";
import { SKILLS_EXTENSION, type SkillEntry } from "./types.ts";

/** The skills of the request's server; a server without skills does not have these methods (-32601). */
function skillsOf(ctx: RequestContext, method: string): SkillSet {
  const s = (ctx.connection.registry as { skills?: SkillSet }).skills;
  if (!s) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (this server serves no skills)`);
  return s;
}

const URI_PARAMS = lazySchema(() =>
  v.looseObject({ uri: v.string('Invalid params: "uri" must be a string'), cursor: v.optional(v.unknown()) }, "Invalid params: needs params {uri}"),
) as v.GenericSchema<unknown, { uri: string; cursor?: unknown }>;

/** `skills/list`: every skill entry, paginated; an entry (its whole `resources`) is never split across pages. */
export const skillsList: MethodSpec<ListParams, Record<string, unknown>> = {
  name: "skills/list",
  eras: ["legacy", "modern"],
  params: LIST_PARAMS,
  handle(p, ctx) {
    const s = skillsOf(ctx, "skills/list");
    const r = ctx.connection.registry;
    return listPage("skills/list", s.entries, (e) => e.uri, "skills", (e: SkillEntry) => ({ ...e }), p, r.options.pageSize, STATIC_LIST_CACHE, ctx.features);
  },
};

/** `skills/get { uri }`: one skill's entry by the URI of its SKILL.md; an unknown URI is -32602. */
export const skillsGet: MethodSpec<{ uri: string }, Record<string, unknown>> = {
  name: "skills/get",
  eras: ["legacy", "modern"],
  params: URI_PARAMS,
  handle(p, ctx) {
    const entry = skillsOf(ctx, "skills/get").get(p.uri);
    if (!entry) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: no skill at ${p.uri} (give the URI of a skill's SKILL.md, as skills/list lists it)`, { uri: p.uri });
    return { skill: entry, ...cacheFields(STATIC_LIST_CACHE, ctx.features) };
  },
};

/** `resources/directory/read { uri, cursor? }`: the direct children of a skill directory, paginated like resources/list. */
export const resourcesDirectoryRead: MethodSpec<{ uri: string; cursor?: unknown }, Record<string, unknown>> = {
  name: "resources/directory/read",
  eras: ["legacy", "modern"],
  params: URI_PARAMS,
  handle(p, ctx) {
    const children = skillsOf(ctx, "resources/directory/read").directory(p.uri);
    if (!children) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${p.uri} is not a directory this server serves`, { uri: p.uri });
    const r = ctx.connection.registry;
    const f = ctx.features;
    return listPage(`resources/directory/read ${p.uri}`, children, (c) => c.uri, "resources", (c) => projectResource(c.uri, c as never, f), p, r.options.pageSize, STATIC_LIST_CACHE, f);
  },
};

/** Every method of the extension. */
export const SKILLS_METHODS: readonly MethodSpec[] = [skillsList, skillsGet, resourcesDirectoryRead];

/**
 * Server capabilities with the extension declared (`extensions["io.modelcontextprotocol/skills"]:
 * { directoryRead: true }`) when the server serves skills; otherwise as given.
 */
export function withSkillsExtension(capabilities: Record<string, unknown>, skills: SkillSet | undefined): Record<string, unknown> {
  if (!skills) return capabilities;
  const ext = (capabilities.extensions as Record<string, unknown> | undefined) ?? {};
  return { ...capabilities, extensions: { ...ext, [SKILLS_EXTENSION]: { directoryRead: true } } };
}
