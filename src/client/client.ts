/** @module The MCP client: one connection to one server, both eras; the protocol's methods (tools, resources, prompts, tasks, change listeners) over its connection core. */
import { ClientConnection } from "./client-connection.ts";
import { ClientTasks } from "./tasks.ts";
import type { CallOptions, CallToolResult, JsonObject, RequestOptions, UpstreamTool } from "./client-types.ts";

export type {
  CallOptions,
  CallToolResult,
  ClientOptions,
  Implementation,
  JsonObject,
  ServerRequestHandler,
  UnattributedAsks,
  UpstreamTool,
} from "./client-types.ts";

/**
 * One connection to one MCP server. Made by {@link import("./connect.ts").connect}; a stateful owner of the
 * transport, the pending requests and the listeners (its core: {@link ClientConnection}, src/client/client-connection.ts).
 */
export class McpClient extends ClientConnection {
  readonly #toolsChanged = new Set<() => void>();
  readonly #notified = new Set<(method: string, params: JsonObject | undefined) => void>();
  #nextToken = 1;
  #listen: AbortController | undefined;
  #tasks: ClientTasks | undefined;

  /** Tasks on this server, both eras (src/client/tasks.ts): `call`, `get`, `cancel`, `result`. */
  get tasks(): ClientTasks {
    return (this.#tasks ??= new ClientTasks(this, () => this.opts.capabilities ?? {}));
  }

  /** Every page of a paginated list (opaque `cursor`/`nextCursor`, MCP basic/utilities/pagination), at most 1000 pages. */
  async #all(method: string, key: string): Promise<JsonObject[]> {
    const out: JsonObject[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < 1000; page++) {
      const r = await this.request(method, cursor === undefined ? {} : { cursor });
      const items = r[key];
      if (Array.isArray(items)) out.push(...(items as JsonObject[]));
      const next = r.nextCursor;
      if (typeof next !== "string" || seen.has(next)) return out;
      seen.add(next);
      cursor = next;
    }
    return out;
  }

  /**
   * Lists every tool (all pages of `tools/list`, MCP server/tools).
   * @returns the tools exactly as the server listed them.
   * @throws OutboundError as {@link request}.
   */
  listTools(): Promise<UpstreamTool[]> {
    return this.#all("tools/list", "tools") as Promise<UpstreamTool[]>;
  }

  /**
   * Calls a tool (MCP server/tools `tools/call`).
   * @param name - the tool's name on this server.
   * @param args - its arguments (an object).
   * @param opts - signal (cancellation), onProgress, timeoutMs, extra `_meta`.
   * @returns the CallToolResult as the server sent it (a tool's failure is `isError: true`, not a rejection).
   * @throws OutboundError as {@link request} (protocol errors such as an unknown tool are "rpc").
   */
  async callTool(name: string, args: JsonObject = {}, opts: CallOptions = {}): Promise<CallToolResult> {
    const meta: JsonObject = { ...opts.meta };
    let token: string | undefined;
    if (opts.onProgress) {
      token = `${this.label}-p${this.#nextToken++}`;
      meta.progressToken = token;
      this.progress.set(token, opts.onProgress);
    }
    const params: JsonObject = { name, arguments: args };
    if (Object.keys(meta).length > 0) params._meta = meta;
    try {
      return (await this.request("tools/call", params, {
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
        onRequest: opts.onRequest,
        unattributed: opts.unattributed,
        onLog: opts.onLog,
        capabilities: opts.capabilities,
        party: opts.party,
        listening: opts.listening,
      })) as CallToolResult;
    } finally {
      if (token !== undefined) this.progress.delete(token);
    }
  }

  /** Every resource (all pages of `resources/list`, MCP server/resources). @throws OutboundError */
  listResources(): Promise<JsonObject[]> {
    return this.#all("resources/list", "resources");
  }

  /** Every resource template (all pages of `resources/templates/list`). @throws OutboundError */
  listResourceTemplates(): Promise<JsonObject[]> {
    return this.#all("resources/templates/list", "resourceTemplates");
  }

  /**
   * Reads a resource (`resources/read`).
   * @returns the ReadResourceResult as sent (`contents` with `mimeType`, `_meta` kept).
   * @throws OutboundError as {@link request}.
   */
  readResource(uri: string, opts: RequestOptions = {}): Promise<JsonObject> {
    return this.request("resources/read", { uri }, opts);
  }

  /** Every prompt (all pages of `prompts/list`, MCP server/prompts). @throws OutboundError */
  listPrompts(): Promise<JsonObject[]> {
    return this.#all("prompts/list", "prompts");
  }

  /**
   * Gets a prompt (`prompts/get`).
   * @param args - its arguments (string values).
   * @returns the GetPromptResult as sent.
   * @throws OutboundError as {@link request}.
   */
  getPrompt(name: string, args: Record<string, string> = {}, opts: RequestOptions = {}): Promise<JsonObject> {
    return this.request("prompts/get", { name, arguments: args }, opts);
  }

  /** `ping` (legacy only; 2026-07-28 has none, where this sends `server/discover` instead). @throws OutboundError */
  async ping(timeoutMs?: number): Promise<void> {
    await this.request(this.era === "modern" ? "server/discover" : "ping", {}, { timeoutMs });
  }

  /**
   * Calls `listener` whenever the server says its tool list changed: `notifications/tools/list_changed`
   * on a legacy session, or on a `subscriptions/listen` stream opened here in 2026-07-28 (when the server
   * advertises `tools.listChanged`).
   * @returns a function that removes the listener (the listen stream is cancelled with the last one).
   */
  onToolsChanged(listener: () => void): () => void {
    this.#toolsChanged.add(listener);
    if (
      this.era === "modern" &&
      this.#listen === undefined &&
      (this.serverCapabilities.tools as JsonObject | undefined)?.listChanged === true
    ) {
      const ac = (this.#listen = new AbortController());
      this.request(
        "subscriptions/listen",
        { notifications: { toolsListChanged: true } },
        { signal: ac.signal, timeoutMs: 0 },
      ).catch(() => {});
    }
    return () => {
      this.#toolsChanged.delete(listener);
      if (this.#toolsChanged.size === 0 && this.#listen) {
        this.#listen.abort();
        this.#listen = undefined;
      }
    };
  }

  /**
   * Calls `listener` with every notification the server sends (as the connection's `onNotification` does,
   * after it), e.g. `notifications/resources/updated`; what {@link import("./upstream-content.ts").upstreamContent}
   * relays to the clients in front.
   * @returns a function that removes the listener.
   */
  onNotification(listener: (method: string, params: JsonObject | undefined) => void): () => void {
    this.#notified.add(listener);
    return () => void this.#notified.delete(listener);
  }

  /** Ends the connection: pending requests reject ("closed"), the transport closes (the child process ends). Idempotent. */
  override async close(): Promise<void> {
    this.#listen?.abort();
    await super.close();
  }

  /** The server's notifications: a tools list change to {@link onToolsChanged}'s listeners, every one to {@link onNotification}'s (after the connection's `onNotification`). */
  protected override heard(method: string, params: JsonObject | undefined): void {
    if (method === "notifications/tools/list_changed") for (const l of [...this.#toolsChanged]) l();
    super.heard(method, params);
    for (const l of [...this.#notified]) l(method, params);
  }
}
