/** @module Upstreams' resources, templates and prompts served as ours (`gateway.content`): URIs rewritten both ways, prompt names by the tool naming strategy, subscriptions and list changes relayed, asks forwarded. */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { OutboundError } from "../server/outbound.ts";
import { emitContentChange, type CacheHints, type ContentContext } from "../content/common.ts";
import { contentProvider, type ContentProvider, type WireObject } from "../content/provider.ts";
import type { ResourceContents } from "../content/resource.ts";
import type { PromptMessage, PromptResult } from "../content/prompt.ts";
import type { JsonObject, McpClient } from "./client.ts";
import type { NamingStrategy } from "./naming.ts";
import { relay, type RelayContext } from "./relay.ts";
import { UriRewriter } from "./uri-rewrite.ts";
import { upstreamSkills } from "./upstream-skills.ts";
import type { SkillSource } from "../skills/types.ts";
import { logName } from "../runtime/log-name.ts";
import { caps, hintsOf, nameAll, wireError, type ContentUpstream } from "./upstream-content-kit.ts";
import { followListChanges, upstreamSubscriptions } from "./upstream-subscriptions.ts";

/** The provider, and what the gateway tells it. */
export interface UpstreamContent extends ContentProvider {
  readonly rewriter: UriRewriter;
  /** The upstreams' skills (those that declared the skills extension). */
  readonly skills: SkillSource;
  /** A notification from an upstream (resources/updated, resources/list_changed, prompts/list_changed). */
  notify(server: string, method: string, params: JsonObject | undefined): void;
  /** Lists every upstream's prompts again and names them (at start, and after a prompts/list_changed). */
  refreshPrompts(): Promise<void>;
  /**
   * A connection to an upstream is up: a 2026-07-28 upstream that advertises `resources.listChanged` or
   * `prompts.listChanged` sends those only on a `subscriptions/listen` stream, so one is opened for them, open
   * as long as the connection (a legacy upstream sends them on its session anyway).
   */
  follow(server: string, client: McpClient): void;
}

/**
 * The content provider of a gateway: every upstream that advertised `resources` or `prompts` serves them
 * through it. Lists ask every upstream each time (an upstream that fails is left out of that list, with
 * one line on stderr); reads, prompts and completions go to the upstream the URI or name leads to, with
 * the upstream's asks relayed to our client ({@link relay}). Items keep every field the upstream sent
 * (`mimeType`, `_meta`, annotations, icons), each client getting its version's projection.
 * @param ups - the upstreams, in configuration order.
 * @param naming - the tool naming strategy, applied to prompt names.
 * @param rewrite - whether URIs are rewritten (two or more upstreams with resources, or strategy "prefix").
 */
export function contentOfUpstreams(
  ups: readonly ContentUpstream[],
  naming: NamingStrategy,
  rewrite: boolean,
): UpstreamContent {
  const rw = new UriRewriter(
    ups.map((u) => u.name),
    rewrite,
  );
  const byName = new Map(ups.map((u) => [u.name, u]));
  const withCap = (key: string) => ups.filter((u) => caps(u, key));
  let prompts = new Map<string, { server: string; name: string }>();
  const subscribers = new Map<string, number>();
  /** 2026-07-28 upstreams: one listen stream per URI subscribed. */
  const listens = new Map<string, AbortController>();
  const left = (u: ContentUpstream, what: string) => (e: unknown) => {
    process.stderr.write(`${logName()}: upstream "${u.name}": ${what} left out: ${(e as Error)?.message ?? e}\n`);
    return [] as JsonObject[];
  };
  const upstreamOf = (uri: string): { u: ContentUpstream; uri: string } | undefined => {
    const b = rw.back(uri);
    const u = b && byName.get(b.server);
    return u && caps(u, "resources") ? { u, uri: b.uri } : undefined;
  };
  /** The prompts of these upstreams, named together (the names then in force for prompts/get). */
  const promptsOf = async (list: readonly ContentUpstream[]): Promise<WireObject[]> => {
    const lists = await Promise.all(
      list.map(async (u) => ({
        u,
        items: await u
          .connect()
          .then((c) => c.listPrompts())
          .catch(left(u, "its prompts")),
      })),
    );
    prompts = nameAll(
      lists.map((l) => ({
        server: l.u.name,
        names: l.items.filter((p) => typeof p?.name === "string").map((p) => p.name as string),
      })),
      naming,
    );
    const exposed = new Map([...prompts].map(([k, v]) => [`${v.server}\u0000${v.name}`, k]));
    return lists.flatMap((l) =>
      l.items
        .filter((p) => typeof p?.name === "string")
        .map((p) => ({ ...p, name: exposed.get(`${l.u.name}\u0000${p.name}`)! })),
    );
  };
  const message = (server: string, m: JsonObject): PromptMessage => ({
    role: m.role as PromptMessage["role"],
    content: rw.block(server, m.content) as PromptMessage["content"],
  });

  const provider = contentProvider({
    rewriter: rw,
    // Their skills (the skills extension), served beside our own.
    skills: upstreamSkills(ups, rw),
    // Read when the server first advertises its capabilities (upstreams started eagerly have answered by then).
    serves: {
      get resources() {
        return withCap("resources").length > 0;
      },
      get prompts() {
        return withCap("prompts").length > 0;
      },
      get completions() {
        return withCap("completions").length > 0;
      },
      get subscribe() {
        return ups.some((u) => caps(u, "resources")?.subscribe === true);
      },
      get resourcesListChanged() {
        return ups.some((u) => caps(u, "resources")?.listChanged === true);
      },
      get promptsListChanged() {
        return ups.some((u) => caps(u, "prompts")?.listChanged === true);
      },
    },
    async listResources(): Promise<WireObject[]> {
      const one = async (u: ContentUpstream): Promise<JsonObject[]> =>
        (await (await u.connect()).listResources())
          .filter((r) => typeof r?.uri === "string")
          .map((r) => ({
            ...r,
            uri: rw.out(u.name, r.uri as string),
            ...(r._meta !== undefined ? { _meta: rw.meta(u.name, r._meta) } : {}),
          }));
      const lists = await Promise.all(withCap("resources").map((u) => one(u).catch(left(u, "its resources"))));
      return lists.flat();
    },
    async listTemplates(): Promise<WireObject[]> {
      const one = async (u: ContentUpstream): Promise<JsonObject[]> =>
        (await (await u.connect()).listResourceTemplates())
          .filter((t) => typeof t?.uriTemplate === "string")
          .map((t) => ({ ...t, uriTemplate: rw.out(u.name, t.uriTemplate as string) }));
      const lists = await Promise.all(withCap("resources").map((u) => one(u).catch(left(u, "its resource templates"))));
      return lists.flat();
    },
    owns: (uri: string) => upstreamOf(uri) !== undefined,
    async read(uri: string, ctx: ContentContext): Promise<{ contents: ResourceContents[]; cache?: CacheHints }> {
      const to = upstreamOf(uri)!;
      let r: JsonObject;
      try {
        const client = await to.u.connect();
        r = await relay(ctx as RelayContext, (onRequest, signal, unattributed) =>
          client.readResource(to.uri, {
            signal,
            onRequest,
            unattributed,
            capabilities: ctx.clientCapabilities as JsonObject,
            party: (ctx as RelayContext).connection,
          }),
        );
      } catch (e) {
        throw wireError(e);
      }
      const contents = (Array.isArray(r.contents) ? (r.contents as ResourceContents[]) : []).map((c) => ({
        ...c,
        uri: rw.out(to.u.name, c.uri),
      }));
      if (contents.length === 0)
        throw new RpcError(
          ErrorCode.InternalError,
          `upstream "${to.u.name}" answered the read of ${to.uri} with no contents`,
        );
      return { contents, cache: hintsOf(r) };
    },
    listPrompts: (): Promise<WireObject[]> => promptsOf(withCap("prompts")),
    hasPrompt: (name: string) => prompts.has(name),
    async getPrompt(name: string, args: Readonly<Record<string, unknown>>, ctx: ContentContext): Promise<PromptResult> {
      const to = prompts.get(name)!;
      let r: JsonObject;
      try {
        const client = await byName.get(to.server)!.connect();
        r = await relay(ctx as RelayContext, (onRequest, signal, unattributed) =>
          client.getPrompt(to.name, args as Record<string, string>, {
            signal,
            onRequest,
            unattributed,
            capabilities: ctx.clientCapabilities as JsonObject,
            party: (ctx as RelayContext).connection,
          }),
        );
      } catch (e) {
        throw wireError(e);
      }
      const messages = (Array.isArray(r.messages) ? (r.messages as JsonObject[]) : []).map((m) =>
        message(to.server, m),
      );
      return typeof r.description === "string" ? { description: r.description, messages } : { messages };
    },
    complete(
      params: {
        ref: { type: string; uri?: string; name?: string };
        argument: { name: string; value: string };
        context?: unknown;
      },
      ctx: ContentContext,
    ) {
      let server: string | undefined;
      let ref: JsonObject | undefined;
      if (params.ref.type === "ref/prompt" && typeof params.ref.name === "string") {
        const to = prompts.get(params.ref.name);
        if (to) [server, ref] = [to.server, { ...params.ref, name: to.name }];
      } else if (params.ref.type === "ref/resource" && typeof params.ref.uri === "string") {
        const to = upstreamOf(params.ref.uri);
        if (to) [server, ref] = [to.u.name, { ...params.ref, uri: to.uri }];
      }
      if (server === undefined) return undefined;
      const u = byName.get(server)!;
      if (!caps(u, "completions")) return Promise.resolve({ values: [] });
      return (async () => {
        try {
          const r = await (
            await u.connect()
          ).request(
            "completion/complete",
            {
              ref: ref!,
              argument: params.argument,
              ...(params.context !== undefined ? { context: params.context } : {}),
            },
            { signal: ctx.signal },
          );
          const c = (r.completion ?? {}) as { values?: unknown; total?: number; hasMore?: boolean };
          const values = Array.isArray(c.values) ? c.values.filter((x): x is string => typeof x === "string") : [];
          return {
            values,
            ...(typeof c.total === "number" ? { total: c.total } : {}),
            ...(typeof c.hasMore === "boolean" ? { hasMore: c.hasMore } : {}),
          };
        } catch (e) {
          throw wireError(e);
        }
      })();
    },
    ...upstreamSubscriptions(upstreamOf, left),
    notify(server: string, method: string, params: JsonObject | undefined): void {
      if (method === "notifications/resources/updated" && typeof params?.uri === "string")
        emitContentChange({ kind: "resource", uri: rw.out(server, params.uri), source: provider });
      else if (method === "notifications/resources/list_changed") emitContentChange({ kind: "list", source: provider });
      else if (method === "notifications/prompts/list_changed")
        void provider.refreshPrompts().then(() => emitContentChange({ kind: "prompts", source: provider }));
    },
    async refreshPrompts(): Promise<void> {
      await promptsOf(withCap("prompts").filter((u) => u.connected));
    },
    follow: followListChanges,
  });
  return provider;
}

/**
 * Another server's resources, templates and prompts, ready to serve beside your own
 * (`serve({ tools, resources: [...mine, await upstreamContent(gh)] })`): URIs and prompt names as the server has
 * them, every field kept, projected onto each client's version; reads and prompts that ask are relayed to
 * your client (give connect() the `capabilities` it may ask for). Lists are asked for each time.
 * Subscriptions reach the server, and its change notifications reach the clients in front: `resources/updated`
 * (to the sessions subscribed to that URI), `resources/list_changed` and `prompts/list_changed` (the prompt
 * names read again first); from a 2026-07-28 server, `resources/updated` on the listen stream a subscription
 * opens, and its list changes on a listen stream opened for them.
 * @param client - a connected client.
 * @returns a provider for `serve()`'s `resources` (or `prompts`), its prompt names read once now.
 * @throws OutboundError when listing the prompts fails.
 */
export async function upstreamContent(client: McpClient): Promise<ContentProvider> {
  const p = contentOfUpstreams(
    [
      {
        name: client.label,
        connect: () => Promise.resolve(client),
        capabilities: client.serverCapabilities,
        connected: true,
      },
    ],
    "none",
    false,
  );
  client.onNotification((method, params) => p.notify(client.label, method, params));
  p.follow(client.label, client);
  await p.refreshPrompts();
  return p;
}
