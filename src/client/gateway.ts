/** @module The gateway: many upstream servers fronted as one live set of tools, with their lifecycle (eager or lazy start, late joining, restart with backoff, retry, shutdown). */
import type { Tool } from "../tools/types.ts";
import type { McpServer } from "../server/mcp-server.ts";
import { OutboundError } from "../server/outbound.ts";
import type { CallOptions, CallToolResult, JsonObject, McpClient, UpstreamTool } from "./client.ts";
import { connect } from "./connect.ts";
import { exposedNames, NamingError, safeName, SEPARATOR, withHash, type NamingStrategy } from "./naming.ts";
import type { StderrMode } from "./stdio.ts";
import type { UpstreamConfig } from "./servers-file.ts";
import { passesFilters, passthroughTool } from "./upstream-tools.ts";
import { contentOfUpstreams, type UpstreamContent } from "./upstream-content.ts";
import { logName } from "../runtime/log-name.ts";
import { APP_MIME_TYPE, UI_EXTENSION } from "../apps/app.ts";

/**
 * The client capabilities a gateway declares to its upstreams: their asks are forwarded to the client in
 * front, which answers or refuses each (-32601 when it lacks the capability: src/client/relay.ts); and the
 * MCP Apps extension (`extensions["io.modelcontextprotocol/ui"]`, BEYOND-TOOLS §2.3), so an upstream with
 * views lists its UI-enabled tools, view-only ones included: the gateway relays the `ui://` resources and
 * `_meta.ui` links as they are and keeps view-only tools from clients in front that did not declare the
 * extension (src/client/upstream-tools.ts). The connection is shared by every client in front and made
 * before any of them, so it declares what the gateway can relay, not what one client said.
 */
export const FORWARDED_CAPABILITIES = Object.freeze({
  roots: {},
  sampling: {},
  elicitation: { form: {}, url: {} },
  extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
});

/** Options of {@link startGateway}. */
export interface GatewayOptions {
  /** How upstream tool names become ours (default "on-collision"). */
  readonly naming?: NamingStrategy;
  /** What each child's stderr becomes (default: our stderr, each line prefixed `[name] `). */
  readonly stderr?: StderrMode;
  /** The fetch for HTTP upstreams. */
  readonly fetch?: typeof fetch;
  /** First delay before restarting a crashed upstream (or trying again one that failed to start), ms (default 500; doubles per failure up to 30 s). */
  readonly restartDelayMs?: number;
  /** False for one try per upstream, never restarted (and no "restarting" line): `mcpbin proxy --check`. Default true. */
  readonly restart?: boolean;
  /** Names taken by the server's own tools: an upstream tool of such a name is prefixed (or, under "none", refused). */
  readonly reserved?: readonly string[];
}

/** What the gateway knows about one upstream (for `mcpbin proxy --check` and logs). */
export interface UpstreamReport {
  readonly server: string;
  /** "up": answered and listed; "down": failed or did not answer within its start timeout (it may still join); "idle": lazy, not started yet. */
  readonly status: "up" | "down" | "idle";
  /** Why it is down (without the server's name). */
  readonly error?: string;
  /** An HTTP upstream's endpoint: origin and path, never its query or credentials. */
  readonly url?: string;
  readonly protocolVersion?: string;
  /** The tools it listed, as it listed them (before include/exclude). */
  readonly listed: readonly UpstreamTool[];
  /** Upstream tool name → the name we expose, for the tools kept. */
  readonly exposed: ReadonlyMap<string, string>;
}

const MAX_BACKOFF_MS = 30_000;
const DEFAULT_START_TIMEOUT_MS = 10_000;

/** One upstream's connection over time: at most one connect at a time, tried again with backoff after a failure or a crash. */
class Upstream {
  client: McpClient | undefined;
  /** Every notification of the current connection (the content provider's relay). */
  onNotification: ((method: string, params: JsonObject | undefined) => void) | undefined;
  /** Its tools as last listed (undefined until it first answered). */
  listed: UpstreamTool[] | undefined;
  /** Upstream tool name → exposed name, for the tools served now. */
  exposed = new Map<string, string>();
  /** Why it is down (undefined when up or not started). */
  error: string | undefined;
  started = false;
  #connecting: Promise<McpClient> | undefined;
  #abort: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay: number;
  #stopped = false;
  #lastLogged: string | undefined;

  constructor(
    readonly name: string,
    readonly config: UpstreamConfig,
    readonly opts: GatewayOptions,
    /** Called after every successful connect (the first, a late one, a restart). */
    readonly onUp: (client: McpClient) => void,
  ) {
    this.#delay = opts.restartDelayMs ?? 500;
  }

  /** How stderr lines name it: `upstream "name"`, with an HTTP one's endpoint (origin and path only). */
  get who(): string {
    return `upstream "${this.name}"${this.endpoint ? ` (${this.endpoint})` : ""}`;
  }

  /** An HTTP upstream's URL without query, fragment or credentials (which may carry a secret). */
  get endpoint(): string | undefined {
    if (this.config.url === undefined) return undefined;
    const u = new URL(this.config.url);
    return `${u.origin}${u.pathname}`;
  }

  /**
   * A failure's message without the `name: ` each layer (transport, client, this) put before it, so a line
   * that already names the upstream says it once.
   */
  said(message: string): string {
    return message.replace(new RegExp(`(?<=^|: )${this.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `, "g"), "");
  }

  get startTimeoutMs(): number {
    return this.config.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  }

  /**
   * The connected client: the current one, the one being connected, or a new connection now. The handshake
   * itself has no limit (an upstream slower than its start timeout joins when it answers); callers bound
   * their wait ({@link ready}). A failure schedules another try with backoff.
   */
  connect(): Promise<McpClient> {
    if (this.client) return Promise.resolve(this.client);
    if (this.#connecting) return this.#connecting;
    if (this.#stopped) return Promise.reject(new OutboundError("closed", `${this.name}: the gateway is shutting down`));
    this.started = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const c = this.config;
    const target =
      (c.server as McpServer | undefined) ??
      (c.url !== undefined
        ? {
            url: c.url,
            headers: c.headers,
            ...(c.oauth ? { auth: c.oauth === true ? ("oauth" as const) : c.oauth } : {}),
          }
        : { command: c.command!, args: c.args, env: c.env, cwd: c.cwd });
    const ac = (this.#abort = new AbortController());
    this.#connecting = connect(target, {
      name: this.name,
      stderr: this.opts.stderr,
      inheritEnv: c.inheritEnv,
      fetch: this.opts.fetch,
      startTimeoutMs: 0,
      timeoutMs: c.timeoutMs,
      signal: ac.signal,
      capabilities: FORWARDED_CAPABILITIES,
      onNotification: (method, params) => this.onNotification?.(method, params),
    }).then(
      (client) => {
        this.#connecting = undefined;
        if (this.#stopped) {
          void client.close();
          throw new OutboundError("closed", `${this.name}: the gateway is shutting down`);
        }
        this.client = client;
        this.error = undefined;
        this.#lastLogged = undefined;
        this.#delay = this.opts.restartDelayMs ?? 500;
        // Its log messages during calls reach our client, which filters them by the level it asked for.
        if (client.era === "legacy" && client.serverCapabilities.logging)
          client.request("logging/setLevel", { level: "debug" }).catch(() => {});
        void client.closed.then((e) => this.#lost(client, e));
        this.onUp(client);
        return client;
      },
      (e: unknown) => {
        this.#connecting = undefined;
        const message = this.said((e as Error).message);
        this.error = message;
        if (!this.#stopped) this.#schedule(message);
        throw e;
      },
    );
    return this.#connecting;
  }

  /** The client, waiting at most its start timeout for a connection. @throws OutboundError "timeout" naming it, or the failure. */
  ready(): Promise<McpClient> {
    if (this.client) return Promise.resolve(this.client);
    const limit = this.startTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      this.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new OutboundError("timeout", `${this.name}: no answer to the handshake within ${limit} ms`)),
          limit,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** A connection found dead before its exit was seen: forgotten now (and closed), so the next call connects again at once. */
  #drop(client: McpClient): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.close();
  }

  /** The connection ended: unless we ended it, restart after the current delay (doubling on each failure). */
  #lost(client: McpClient, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.#stopped || error === undefined) return;
    this.#schedule(this.said(error.message));
  }

  #schedule(why: string): void {
    if (this.opts.restart === false) return;
    clearTimeout(this.#timer);
    const delay = this.#delay;
    this.#delay = Math.min(delay * 2, MAX_BACKOFF_MS);
    // The same failure again (a server that is still down) is said once, not every 30 s.
    const said = why.replace(/\d+ ms/g, "");
    if (said !== this.#lastLogged)
      process.stderr.write(`${logName()}: ${this.who}: ${why}; restarting in ${delay} ms\n`);
    this.#lastLogged = said;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.connect().catch(() => {});
    }, delay);
    this.#timer.unref?.();
  }

  /**
   * Calls a tool; when the connection is lost during the call, retries once on a new connection, but only
   * for a tool marked `readOnlyHint` or `idempotentHint` (a second run of anything else could repeat its effect);
   * a call that could not be written (the process died between calls: EPIPE) never reached it and is
   * retried once whatever the tool.
   */
  async call(tool: string, args: JsonObject, opts: CallOptions, retryable: boolean): Promise<CallToolResult> {
    const client = await this.ready();
    try {
      return await client.callTool(tool, args, opts);
    } catch (e) {
      if (!(e instanceof OutboundError) || e.code !== "closed" || opts.signal?.aborted) throw e;
      if (e.unsent) {
        // It never reached the upstream (a dead process seen at the write): any tool is retried once, on a new connection.
        this.#drop(client);
        return await (await this.ready()).callTool(tool, args, opts);
      }
      if (!retryable) {
        throw new OutboundError(
          "closed",
          `${e.message}; the call was not retried, as ${tool} is not marked readOnlyHint or idempotentHint`,
        );
      }
      const again = await this.ready();
      return await again.callTool(tool, args, opts);
    }
  }

  /** Ends the connection, a handshake under way, and any restart; the child process ends. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const pending = this.#connecting;
    this.#abort?.abort();
    await Promise.all([
      this.client?.close(),
      pending?.then(
        (c) => c.close(),
        () => {},
      ),
    ]);
    this.client = undefined;
  }
}

/** A change of the gateway's tool set: tools added or replaced, and exposed names removed. */
export interface ToolsChange {
  readonly added: readonly Tool[];
  readonly removed: readonly string[];
}

/** Many upstreams fronted as one live set of tools. Made by {@link createGateway}. */
export interface Gateway {
  /** The passthrough tools served now, named by the naming strategy. */
  readonly tools: Tool[];
  /**
   * The upstreams' resources, templates and prompts (`serve({ resources: [gateway.content] })`; a server with
   * `upstreams` serves them itself): URIs rewritten when there are two or more upstreams (or naming
   * "prefix"), prompt names like tool names, asks forwarded.
   */
  readonly content: UpstreamContent;
  /** The upstreams' `instructions`, each under a heading naming its server (`## Instructions of the upstream server "<name>"`), except those of entries with `instructions: false`; undefined when none gave any. */
  readonly instructions: string | undefined;
  /** One entry per configured upstream, in configuration order. */
  readonly report: readonly UpstreamReport[];
  /**
   * Starts the eager upstreams (`start: "eager"`, the default). Resolves once each has answered and listed
   * its tools or its start timeout has passed (then it is reported on stderr and joins when it answers).
   * Idempotent.
   * @throws NamingError when strategy "none" meets two tools of one name.
   */
  start(): Promise<void>;
  /** As {@link start}, for every upstream, the lazy ones too (what the first `tools/list` or `tools/call` waits for). */
  ready(): Promise<void>;
  /**
   * Calls `listener` after the tool set changed once started: an upstream joined late, or one listed other
   * tools (its `list_changed`, or a restart).
   * @returns a function that removes the listener.
   */
  onChange(listener: (change: ToolsChange) => void): () => void;
  /** Ends every upstream (children get EOF on stdin, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}

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
      listed = await client.listTools();
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

  const synced = new WeakMap<Upstream, Promise<void>>();
  const ups = Object.entries(servers)
    .filter(([, c]) => c.disabled !== true)
    .map(([name, c]) => {
      const u: Upstream = new Upstream(name, c, opts, (client) => {
        // Its prompts are named with the others' once it is up (prompts/get needs the names before any prompts/list).
        synced.set(
          u,
          sync(u, client).then(() => content.refreshPrompts().catch(() => {})),
        );
        content.follow(u.name, client);
        client.onToolsChanged(() => void sync(u, client));
      });
      return u;
    });
  const content = contentOfUpstreams(
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
          (tool, args, o) => u.call(tool, args, o, retryable),
          u.config.timeoutMs,
          rewrite,
          () => u.client?.tasks,
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
      // Each upstream's text under a heading naming it, so a client (and its model) knows whose words they are.
      const sections = ups
        .filter((u) => u.config.instructions !== false && u.client?.instructions)
        .map((u) => `## Instructions of the upstream server "${u.name}"\n${u.client!.instructions}`);
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
