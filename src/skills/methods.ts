/** @module The skills extension's methods (io.modelcontextprotocol/skills): skills/list, skills/get and resources/directory/read, over the server's own skills and its providers'. */
import * as v from "valibot";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { cacheFields } from "../protocol/project.ts";
import { projectResource } from "../content/project.ts";
import { PRIVATE_NO_CACHE, STATIC_LIST_CACHE } from "../shared/cache.ts";
import type { RequestContext } from "../server/context.ts";
import { LIST_PARAMS, listPage, type ListParams } from "../server/list-page.ts";
import type { MethodSpec } from "../server/method.ts";
import { lazySchema } from "../runtime/once.ts";
import type { SkillSet } from "./skill-set.ts";
import { SKILLS_EXTENSION, type SkillEntry, type SkillSource } from "./types.ts";

/** What a server's skills come from: its own set, and the sources of its content providers (an upstream's). */
interface Skills {
  readonly own: SkillSet | undefined;
  readonly sources: readonly SkillSource[];
}

/** The skills of a registry: its own `skills`, and every content provider's declared source. */
function skillsIn(registry: unknown): Skills {
  const r = registry as { skills?: SkillSet; content?: { providers?: readonly { skills?: SkillSource }[] } };
  const sources: SkillSource[] = [];
  for (const p of r.content?.providers ?? []) if (p.skills?.declared) sources.push(p.skills);
  return { own: r.skills, sources };
}

/** The request's server's skills; a server without any does not have these methods (-32601). */
function skillsOf(ctx: RequestContext, method: string): Skills {
  const s = skillsIn(ctx.connection.registry);
  if (!s.own && s.sources.length === 0)
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (this server serves no skills)`);
  return s;
}

const URI_PARAMS = lazySchema(() =>
  v.looseObject(
    { uri: v.string('Invalid params: "uri" must be a string'), cursor: v.optional(v.unknown()) },
    "Invalid params: needs params {uri}",
  ),
) as v.GenericSchema<unknown, { uri: string; cursor?: unknown }>;

/** `skills/list`: every skill entry, paginated; an entry (its whole `resources`) is never split across pages. */
export const skillsList: MethodSpec<ListParams, Record<string, unknown> | Promise<Record<string, unknown>>> = {
  name: "skills/list",
  eras: ["legacy", "modern"],
  params: LIST_PARAMS,
  handle(p, ctx) {
    const s = skillsOf(ctx, "skills/list");
    const pageSize = ctx.connection.registry.options.pageSize;
    const page = (entries: readonly SkillEntry[], cache = STATIC_LIST_CACHE) =>
      listPage(
        "skills/list",
        entries,
        (e) => e.uri,
        "skills",
        (e: SkillEntry) => ({ ...e }),
        p,
        pageSize,
        cache,
        ctx.features,
      );
    const own = s.own?.entries ?? [];
    if (s.sources.length === 0) return page(own);
    // Another server's skills can change: the list is private and not cached.
    return Promise.all(s.sources.map((x) => x.list())).then((lists) =>
      page([...own, ...lists.flat()], PRIVATE_NO_CACHE),
    );
  },
};

/** `skills/get { uri }`: one skill's entry by the URI of its SKILL.md; an unknown URI is -32602. */
export const skillsGet: MethodSpec<{ uri: string }, Promise<Record<string, unknown>>> = {
  name: "skills/get",
  eras: ["legacy", "modern"],
  params: URI_PARAMS,
  async handle(p, ctx) {
    const s = skillsOf(ctx, "skills/get");
    let entry = s.own?.get(p.uri);
    let cache = STATIC_LIST_CACHE;
    for (const x of s.sources) {
      if (entry) break;
      entry = await x.get(p.uri);
      cache = PRIVATE_NO_CACHE;
    }
    if (!entry)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: no skill at ${p.uri} (give the URI of a skill's SKILL.md, as skills/list lists it)`,
        { uri: p.uri },
      );
    return { skill: entry, ...cacheFields(cache, ctx.features) };
  },
};

/** `resources/directory/read { uri, cursor? }`: the direct children of a skill directory, paginated like resources/list. */
export const resourcesDirectoryRead: MethodSpec<{ uri: string; cursor?: unknown }, Promise<Record<string, unknown>>> = {
  name: "resources/directory/read",
  eras: ["legacy", "modern"],
  params: URI_PARAMS,
  async handle(p, ctx) {
    const s = skillsOf(ctx, "resources/directory/read");
    let children: readonly Record<string, unknown>[] | undefined = s.own?.directory(p.uri) as
      Record<string, unknown>[] | undefined;
    let cache = STATIC_LIST_CACHE;
    for (const x of s.sources) {
      if (children) break;
      if (x.directoryRead) children = await x.directory(p.uri);
      cache = PRIVATE_NO_CACHE;
    }
    if (!children)
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${p.uri} is not a directory this server serves`, {
        uri: p.uri,
      });
    const f = ctx.features;
    const listing = (c: Record<string, unknown>) => (c._meta !== undefined ? { ...c, meta: c._meta } : c);
    return listPage(
      `resources/directory/read ${p.uri}`,
      children,
      (c) => c.uri as string,
      "resources",
      (c) => projectResource(c.uri as string, listing(c) as never, f),
      p,
      ctx.connection.registry.options.pageSize,
      cache,
      f,
    );
  },
};

/** Every method of the extension. */
export const SKILLS_METHODS: readonly MethodSpec[] = [skillsList, skillsGet, resourcesDirectoryRead];

/**
 * Server capabilities with the extension declared (`extensions["io.modelcontextprotocol/skills"]`, with
 * `directoryRead: true` when a source of skills answers directory reads) when the server serves skills, its own
 * or an upstream's, and `declare` says so; otherwise as given. `capabilities.extensions` is a 2026-07-28 field:
 * a legacy session gets it only when its client declared extensions itself (the methods answer either way).
 */
export function withSkillsExtension(
  capabilities: Record<string, unknown>,
  registry: unknown,
  declare: boolean,
): Record<string, unknown> {
  if (!declare) return capabilities;
  const s = skillsIn(registry);
  if (!s.own && s.sources.length === 0) return capabilities;
  const directoryRead = s.own !== undefined || s.sources.some((x) => x.directoryRead);
  const ext = (capabilities.extensions as Record<string, unknown> | undefined) ?? {};
  return { ...capabilities, extensions: { ...ext, [SKILLS_EXTENSION]: directoryRead ? { directoryRead: true } : {} } };
}
