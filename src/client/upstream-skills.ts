/** @module Upstreams' skills served as ours (the skills extension through a gateway): skills/list, skills/get and directory reads relayed, URIs rewritten both ways. */
import { OutboundError } from "../server/outbound.ts";
import { logName } from "../runtime/log-name.ts";
import { SKILLS_EXTENSION, type SkillEntry, type SkillSource } from "../skills/types.ts";
import type { JsonObject } from "./client.ts";
import { listSkills } from "./skills.ts";

/** One upstream as the skills relay reaches it (what src/client/upstream-content.ts's ContentUpstream has). */
interface ContentUpstream {
  readonly name: string;
  connect(): Promise<import("./client.ts").McpClient>;
  readonly capabilities: JsonObject | undefined;
}
import type { UriRewriter } from "./uri-rewrite.ts";

/** The extension's settings an upstream declared, or undefined when it did not. */
function settings(u: ContentUpstream): JsonObject | undefined {
  const ext = u.capabilities?.extensions as JsonObject | undefined;
  const s = ext && typeof ext === "object" ? ext[SKILLS_EXTENSION] : undefined;
  return s && typeof s === "object" ? (s as JsonObject) : undefined;
}

/** An upstream's -32602 (not one of its skills or directories) as "not here"; anything else as it is. */
function notHere(e: unknown): undefined {
  if (e instanceof OutboundError && e.code === "rpc" && e.rpc?.code === -32602) return undefined;
  throw e;
}

/**
 * The skills of a gateway's upstreams that declared the extension: each entry's URIs rewritten as resources
 * are (`skill://x/SKILL.md` of `docs` becomes `skill://docs/x/SKILL.md` when URIs are rewritten, so the skill's
 * name stays its last folder), and a URI led back to its upstream for `skills/get` and directory reads.
 * @param ups - the upstreams.
 * @param rw - the gateway's URI rewriter.
 */
export function upstreamSkills(ups: readonly ContentUpstream[], rw: UriRewriter): SkillSource {
  const byName = new Map(ups.map((u) => [u.name, u]));
  const declaring = () => ups.filter((u) => settings(u) !== undefined);
  const entryOf = (server: string, e: SkillEntry): SkillEntry => ({
    ...e,
    uri: rw.out(server, e.uri),
    resources: Array.isArray(e.resources)
      ? e.resources.map((r) => ({ ...r, uri: rw.out(server, r.uri) }))
      : e.resources,
  });
  const upstreamOf = (uri: string): { u: ContentUpstream; uri: string } | undefined => {
    const b = rw.back(uri);
    const u = b && byName.get(b.server);
    return u && settings(u) ? { u, uri: b.uri } : undefined;
  };
  return {
    get declared() {
      return declaring().length > 0;
    },
    get directoryRead() {
      return declaring().some((u) => settings(u)?.directoryRead === true);
    },
    async list() {
      const lists = await Promise.all(
        declaring()
          .map(async (u) => (await listSkills(await u.connect())).map((e) => entryOf(u.name, e)))
          .map((p, i) =>
            p.catch((e: unknown) => {
              process.stderr.write(
                `${logName()}: upstream "${declaring()[i]?.name}": its skills left out: ${(e as Error)?.message ?? e}\n`,
              );
              return [] as SkillEntry[];
            }),
          ),
      );
      return lists.flat();
    },
    async get(uri) {
      const at = upstreamOf(uri);
      if (!at) return undefined;
      const r = await (await at.u.connect()).request("skills/get", { uri: at.uri }).catch(notHere);
      return r ? entryOf(at.u.name, r.skill as unknown as SkillEntry) : undefined;
    },
    async directory(uri) {
      const at = upstreamOf(uri);
      if (!at || settings(at.u)?.directoryRead !== true) return undefined;
      const client = await at.u.connect();
      const out: Record<string, unknown>[] = [];
      let cursor: unknown;
      for (let pages = 0; pages < 1000; pages++) {
        const r = await client
          .request("resources/directory/read", { uri: at.uri, ...(typeof cursor === "string" ? { cursor } : {}) })
          .catch(notHere);
        if (!r) return undefined;
        for (const x of (r.resources as JsonObject[] | undefined) ?? [])
          if (typeof x?.uri === "string") out.push({ ...x, uri: rw.out(at.u.name, x.uri) });
        cursor = r.nextCursor;
        if (typeof cursor !== "string") break;
      }
      return out;
    },
  };
}
