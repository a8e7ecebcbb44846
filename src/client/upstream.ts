/** @module One upstream of a gateway: its connection over time (at most one connect at a time, restart with backoff, one retry of a lost call, shutdown), and what a gateway declares to it. */
import type { McpServer } from "../server/mcp-server.ts";
import { OutboundError } from "../server/outbound.ts";
import type { CallOptions, CallToolResult, JsonObject, McpClient, UpstreamTool } from "./client.ts";
import { connect } from "./connect.ts";
import type { CallerScope } from "./caller.ts";
import { inMemoryTransport } from "./in-memory.ts";
import type { StderrMode } from "./stdio.ts";
import type { UpstreamConfig } from "./servers-file.ts";
import type { NamingStrategy } from "./naming.ts";
import { logName } from "../runtime/log-name.ts";
import { APP_MIME_TYPE, UI_EXTENSION } from "../apps/app.ts";

/**
 * The client capabilities a gateway declares to its upstreams: their asks are forwarded to the client in
 * front, which answers or refuses each (-32601 when it lacks the capability: src/client/relay.ts); and the
 * MCP Apps extension (`extensions["io.modelcontextprotocol/ui"]`, SEP-1865 "MCP Apps"), so an upstream with
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

const MAX_BACKOFF_MS = 30_000;
const DEFAULT_START_TIMEOUT_MS = 10_000;

/** One upstream's connection over time: at most one connect at a time, tried again with backoff after a failure or a crash. */
export class Upstream {
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
    /** The gateway's caller in force: an in-process upstream (`server`) is told it with every line. */
    readonly callers?: CallerScope,
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
      (c.server ? inMemoryTransport(c.server as McpServer, () => this.callers?.extras()) : undefined) ??
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
      // The client in front shows the form and fills in its defaults; its answer goes upstream as it gave it.
      elicitationDefaults: false,
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
