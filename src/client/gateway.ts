/** @module The gateway: many upstream servers fronted as one live set of tools, with their lifecycle (eager or lazy start, late joining, restart with backoff, retry, shutdown). */
import type { Tool } from "../tools/types.ts";
import type { McpClient, UpstreamTool } from "./client.ts";
import { exposedNames, NamingError, safeName, SEPARATOR, withHash } from "./naming.ts";
import type { UpstreamConfig } from "./servers-file.ts";
import { passesFilters, passthroughTool } from "./upstream-tools.ts";
import { contentOfUpstreams } from "./upstream-content.ts";
import { logName } from "../runtime/log-name.ts";
import { Upstream, type GatewayOptions } from "./upstream.ts";
import { CallerScope } from "./caller.ts";
import { registryOf, type McpServer } from "../server/mcp-server.ts";
import type { Gateway, ToolsChange, UpstreamReport } from "./gateway-types.ts";

export type { GatewayOptions } from "./upstream.ts";
export type { Gateway } from "./gateway-types.ts";

/**
 * Makes a gateway over these upstreams without starting any (see {@link Gateway.start}). Names are decided
 * once for the upstreams that answer within their start timeout, all together (the same on every run); an
 * upstream joining later keeps the names already exposed and takes `<server>__<tool>` for a name taken.
 * A crashed upstream is restarted with backoff (and on the next call at once); a call lost with the
 * connection is retried once for `readOnlyHint`/`idempotentHint` tools; a failed call is an isError result
 * naming the upstream, and a call to an upstream that does not answer within its start timeout too.
 * @param servers - name → entry ({@link UpstreamConfig}, already `${VAR}`-expanded); disabled entries are skipped.
 * @param opts - naming, stderr, fetch, restart delay, names reserved by own tools.
 * @returns the gateway.
 */
export function createGateway(servers: Readonly<Record<string, UpstreamConfig>>, opts: GatewayOptions = {}): Gateway {
  const reserved = new Set(opts.reserved ?? []);
  const strategy = opts.naming ?? "on-collision";
  const tools = new Map<string, Tool>();
  const listeners = new Set<(change: ToolsChange) => void>();
  /** False until the first start window has closed: names are then decided for all at once. */
  let settled = false;
  let starting: Promise<void> | undefined;
  let readying: Promise<void> | undefined;

  const sync = async (u: Upstream, client: McpClient): Promise<void> => {
    let listed: UpstreamTool[];
    try {
      listed = await callers.run(undefined, () => client.listTools());
    } catch (e) {
      process.stderr.write(`${logName()}: ${u.who}: tools/list failed: ${u.said((e as Error).message)}\n`);
      return;
    }
    if (u.client !== client) return;
    const joined = u.listed === undefined;
    u.listed = listed.filter((t) => typeof t?.name === "string");
    if (!settled) return;
    const change = apply(u);
    if (joined)
      process.stderr.write(
        `${logName()}: upstream "${u.name}" joined: ${u.exposed.size} tool${u.exposed.size === 1 ? "" : "s"}\n`,
      );
    if (change.added.length + change.removed.length > 0) for (const l of [...listeners]) l(change);
  };

  // The caller of the request being served reaches in-process upstreams (mount()); the gateway's own listing is for no one.
  const callers = new CallerScope();
  const synced = new WeakMap<Upstream, Promise<void>>();
  const ups = Object.entries(servers)
    .filter(([, c]) => c.disabled !== true)
    .map(([name, c]) => {
      const u: Upstream = new Upstream(
        name,
        c,
        opts,
        (client) => {
          // Its prompts are named with the others' once it is up (prompts/get needs the names before any prompts/list).
          synced.set(
            u,
            sync(u, client).then(() => callers.run(undefined, () => content.refreshPrompts()).catch(() => {})),
          );
          content.follow(u.name, client);
          client.onToolsChanged(() => void sync(u, client));
        },
        callers,
      );
      return u;
    });
  const content = callers.around(
    contentOfUpstreams(
      ups.map((u) => ({
        name: u.name,
        connect: () => u.ready(),
        get capabilities() {
          return u.client?.serverCapabilities;
        },
        get connected() {
          return u.client !== undefined;
        },
      })),
      strategy,
      strategy === "prefix" || ups.length > 1,
    ),
  );
  for (const u of ups) u.onNotification = (method, params) => content.notify(u.name, method, params);

  const kept = (u: Upstream) =>
    (u.listed ?? []).filter((t) => passesFilters(t.name, u.config.include, u.config.exclude));
  const aliases = Object.fromEntries(ups.map((u) => [u.name, u.config.aliases ?? {}]));

  /** The exposed names of every upstream that listed, computed together (own tools' names taken first). */
  const fresh = (strict: boolean): Map<string, Map<string, string>> => {
    const OWN = "\u0000own";
    const listedUps = ups.filter((u) => u.listed !== undefined);
    try {
      return exposedNames(
        [
          { server: OWN, tools: [...reserved] },
          ...listedUps.map((u) => ({ server: u.name, tools: kept(u).map((t) => t.name) })),
        ],
        strategy,
        aliases,
      );
    } catch (e) {
      if (strict || !(e instanceof NamingError)) throw e;
      // Strategy "none" and a late joiner that collides: its colliding names are decided (and refused) below.
      return new Map(
        listedUps.map((u) => [
          u.name,
          new Map(kept(u).map((t) => [t.name, safeName(aliases[u.name]?.[t.name] ?? t.name)])),
        ]),
      );
    }
  };

  /** Re-decides one upstream's tools (keeping names already exposed); returns what changed. */
  const apply = (u: Upstream, names = fresh(false)): ToolsChange => {
    const taken = new Set([...reserved, ...[...tools.keys()].filter((n) => ![...u.exposed.values()].includes(n))]);
    const next = new Map<string, string>();
    const added: Tool[] = [];
    const a = aliases[u.name] ?? {};
    for (const def of kept(u)) {
      let name = u.exposed.get(def.name) ?? names.get(u.name)?.get(def.name) ?? safeName(def.name);
      if (taken.has(name)) {
        if (strategy === "none" && a[def.name] === undefined) {
          process.stderr.write(
            `${logName()}: upstream "${u.name}": tool ${JSON.stringify(def.name)} left out: the name "${name}" is already served (naming strategy "none")\n`,
          );
          continue;
        }
        name = safeName(`${u.name}${SEPARATOR}${def.name}`);
        if (taken.has(name)) name = withHash(name, `${u.name}\u0000${def.name}`);
      }
      const annotations = def.annotations as { readOnlyHint?: boolean; idempotentHint?: boolean } | undefined;
      const retryable = annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
      const before = tools.get(name);
      try {
        const rw = content.rewriter;
        const rewrite = rw.on
          ? { meta: (m: unknown) => rw.meta(u.name, m), block: (b: unknown) => rw.block(u.name, b) }
          : undefined;
        const t = passthroughTool(
          def,
          name,
          (tool, args, o, caller) => callers.run(caller, () => u.call(tool, args, o, retryable)),
          u.config.timeoutMs,
          rewrite,
          () => u.client?.tasks,
          // An in-process server's own scopes hold here too: the scope checks and lists of this server see them.
          u.config.server ? registryOf(u.config.server as McpServer).tools.get(def.name)?.definition.scopes : undefined,
        );
        taken.add(name);
        next.set(def.name, name);
        if (
          !before ||
          JSON.stringify(before.definition) !== JSON.stringify(t.definition) ||
          JSON.stringify(before.inputSchema) !== JSON.stringify(t.inputSchema)
        ) {
          tools.set(name, t);
          added.push(t);
        }
      } catch (e) {
        process.stderr.write(
          `${logName()}: upstream "${u.name}": tool ${JSON.stringify(def.name)} left out: ${(e as Error).message}\n`,
        );
      }
    }
    const removed = [...u.exposed.values()].filter((n) => ![...next.values()].includes(n));
    for (const n of removed) tools.delete(n);
    u.exposed = next;
    return { added, removed };
  };

  /** Starts these upstreams; resolves when each listed its tools or passed its start timeout. */
  const window = (list: Upstream[]): Promise<void> =>
    Promise.all(
      list.map(async (u) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            if (u.listed === undefined && u.error === undefined) {
              u.error = `no answer to the handshake within ${u.startTimeoutMs} ms`;
              process.stderr.write(`${logName()}: ${u.who} left out: ${u.error}; its tools join when it answers\n`);
            }
            resolve();
          }, u.startTimeoutMs);
        });
        const up = u.connect().then(
          () => synced.get(u),
          (e: unknown) => {
            u.error = u.said((e as Error).message);
            process.stderr.write(`${logName()}: ${u.who} left out: ${u.error}\n`);
          },
        );
        await Promise.race([timedOut, up]);
        clearTimeout(timer);
      }),
    ).then(() => {});

  /** After the first window: names for all that listed, at once (strict: "none" collisions stop the start). */
  const settle = (): void => {
    if (settled) return;
    const names = fresh(true);
    settled = true;
    for (const u of ups) if (u.listed !== undefined) apply(u, names);
  };

  /** Later windows (lazy upstreams): each that listed is applied like a late joiner. */
  const joinLate = (list: Upstream[]): void => {
    const added: Tool[] = [];
    const removed: string[] = [];
    for (const u of list) {
      if (u.listed === undefined || u.exposed.size > 0) continue;
      const c = apply(u);
      added.push(...c.added);
      removed.push(...c.removed);
    }
    if (added.length + removed.length > 0) for (const l of [...listeners]) l({ added, removed });
  };

  const gateway: Gateway = {
    get tools() {
      return [...tools.values()];
    },
    content,
    get instructions() {
      // Each upstream's text under a heading naming it, so a client (and its model) knows whose words they are; a
      // heading of its own (`#`, or a line of `=` or `-` under text) is escaped with `\`: it cannot open a section
      // that claims to be another server's.
      const sections = ups
        .filter((u) => u.config.instructions !== false && u.client?.instructions)
        .map(
          (u) =>
            `## Instructions of the upstream server "${u.name}"\n${u.client!.instructions!.replace(/^( {0,3})(#|=+\s*$|-+\s*$)/gm, "$1\\$2")}`,
        );
      return sections.length > 0 ? sections.join("\n\n") : undefined;
    },
    get report() {
      return ups.map((u): UpstreamReport => ({
        server: u.name,
        status: u.listed !== undefined && u.client ? "up" : u.started ? "down" : "idle",
        error: u.listed !== undefined && u.client ? undefined : u.error,
        ...(u.endpoint ? { url: u.endpoint } : {}),
        protocolVersion: u.client?.protocolVersion,
        listed: u.listed ?? [],
        exposed: u.exposed,
      }));
    },
    start() {
      return (starting ??= window(ups.filter((u) => u.config.start !== "lazy")).then(settle));
    },
    ready() {
      return (readying ??= gateway.start().then(async () => {
        const lazy = ups.filter((u) => !u.started);
        if (lazy.length === 0) return;
        await window(lazy);
        joinLate(lazy);
      }));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      await Promise.all(ups.map((u) => u.stop()));
    },
  };
  return gateway;
}

/**
 * Makes a gateway and starts it ({@link createGateway}, {@link Gateway.start}): every eager upstream at once,
 * each bounded by its start timeout (default 10 s). One that cannot start or does not answer in time is
 * reported on stderr and left out; the others are unaffected.
 * @throws NamingError when strategy "none" meets two tools of one name.
 */
export async function startGateway(
  servers: Readonly<Record<string, UpstreamConfig>>,
  opts: GatewayOptions = {},
): Promise<Gateway> {
  const g = createGateway(servers, opts);
  try {
    await g.start();
  } catch (e) {
    await g.close();
    throw e;
  }
  return g;
}
