/** @module The MCP client: one connection to one server, both eras, requests and what the server sends back. */
import {
  checkEnvelope,
  ErrorCode,
  errorLine,
  notificationLine,
  resultLine,
  RpcError,
  type RequestId,
} from "../protocol/jsonrpc.ts";
import { LEGACY_VERSIONS, MODERN_VERSION, NEWEST_LEGACY_VERSION } from "../protocol/versions.ts";
import { Outbound, OutboundError } from "../server/outbound.ts";
import { ClientTasks } from "./tasks.ts";
import { META as META_KEYS } from "../protocol/meta.ts";
import type { ClientTransport } from "./transport.ts";
import { logName } from "../runtime/log-name.ts";

/** An implementation's identity (MCP `Implementation`). */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly [key: string]: unknown;
}

/** A JSON object as the server sent it. */
export type JsonObject = Record<string, unknown>;

/** A tool as the server listed it (MCP `Tool`): every field kept. */
export interface UpstreamTool extends JsonObject {
  readonly name: string;
  readonly inputSchema: JsonObject;
}

/** What `tools/call` returned (MCP `CallToolResult`), as the server sent it. */
export interface CallToolResult extends JsonObject {
  readonly content: JsonObject[];
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
}

/** A server → client request the caller answers (roots/list, sampling/createMessage, elicitation/create). */
export type ServerRequestHandler = (
  method: string,
  params: JsonObject | undefined,
  ctx: { readonly signal: AbortSignal; readonly key?: string },
) => Promise<unknown>;

/**
 * Who answers the server's requests that cannot be tied to one of several requests in flight (see
 * {@link RequestOptions.onRequest}): `party` names who the request is made for (compared by identity, e.g.
 * the client session a proxy serves); `onRequest` answers such a request on that party's behalf.
 */
export interface UnattributedAsks {
  readonly party: unknown;
  readonly onRequest: ServerRequestHandler;
}

/** Options of {@link connect} about the protocol (the transport's own options are in {@link ConnectOptions}). */
export interface ClientOptions {
  /** Sent as `clientInfo`; default `{ name: "mcpbin-client", version: "0.1.0" }`. */
  readonly clientInfo?: Implementation;
  /**
   * Which era to speak: `"auto"` (default) probes with `server/discover` and falls back to `initialize`
   * on any error or no answer (MCP 2026-07-28 basic/versioning "Backward Compatibility with Initialization-Based Versions"); `"modern"` only 2026-07-28; `"legacy"` only `initialize`
   * (at the newest legacy version the server accepts).
   */
  readonly era?: "auto" | "modern" | "legacy";
  /** Time limit of each request, ms (default 60000; 0 = none); `callTool` may set its own. */
  readonly timeoutMs?: number;
  /** Time limit of the handshake, ms (default 10000; 0 = none); the `server/discover` probe gets at most 5000 of it (5000 when there is no limit). */
  readonly startTimeoutMs?: number;
  /** Client capabilities declared (default `{}`); add `roots`, `sampling`, `elicitation` when `onRequest` answers them. */
  readonly capabilities?: JsonObject;
  /**
   * Answers the server's requests other than `ping` (answered here) that no request in flight answers
   * (see {@link RequestOptions.onRequest}); without it they get -32601 (-32603 when several requests in
   * flight could have caused one).
   */
  readonly onRequest?: ServerRequestHandler;
  /** Every notification the server sends (after the client's own handling of progress and list_changed). */
  readonly onNotification?: (method: string, params: JsonObject | undefined) => void;
}

/** Options of one tool call. */
export interface CallOptions {
  /** Aborting it sends `notifications/cancelled` for the call and rejects with OutboundError "cancelled". */
  readonly signal?: AbortSignal;
  /** Called per `notifications/progress` of this call (a progress token is sent only when this is given). */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Time limit of this call, ms; default the connection's `timeoutMs`; 0 = none. */
  readonly timeoutMs?: number;
  /** More `_meta` for the request (e.g. `traceparent`); the protocol's own keys are set by the client. */
  readonly meta?: JsonObject;
  /** Answers the server's requests this call caused (instead of the connection's `onRequest`); see {@link RequestOptions}. */
  readonly onRequest?: ServerRequestHandler;
  /** Answers the server's requests that cannot be tied to one call; see {@link RequestOptions}. */
  readonly unattributed?: UnattributedAsks;
  /** Gets the log messages (`notifications/message`) that arrive while this call is in flight; see {@link RequestOptions}. */
  readonly onLog?: RequestOptions["onLog"];
  /** 2026-07-28: the client capabilities this call declares; see {@link RequestOptions}. */
  readonly capabilities?: JsonObject;
  /** Who the call is made for (e.g. the client session a proxy serves); see {@link RequestOptions}. */
  readonly party?: unknown;
  /** Whether someone hears this call's log messages now; see {@link RequestOptions}. */
  readonly listening?: () => boolean;
}

/** Options of one request. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Time limit, ms; default the connection's `timeoutMs`; 0 = none. */
  readonly timeoutMs?: number;
  /**
   * Answers the server's requests (roots/list, sampling, elicitation) that this request caused. A legacy
   * server's request names no request of ours, so it is tied to one thus, in order:
   * 1. it came on this request's own reply stream (Streamable HTTP: the SDKs send a tool's asks on its
   *    POST's SSE stream, their `relatedRequestId`);
   * 2. its `_meta.progressToken` is this request's progress token;
   * 3. this is the only request with an `onRequest` in flight.
   * Otherwise (stdio, several such requests in flight) it cannot be tied to one: it goes to the
   * {@link unattributed} handler of the oldest of them when they all give one for the same party, else
   * to the connection's `onRequest`, else the server gets -32603 saying it could not be attributed.
   * (A 2026-07-28 server sends no requests: its asks are `input_required` results of the request itself.)
   */
  readonly onRequest?: ServerRequestHandler;
  /** Answers the server's requests that cannot be tied to one request; see {@link onRequest}. */
  readonly unattributed?: UnattributedAsks;
  /** Gets the `notifications/message` params this request caused (tied to it as `onRequest` says, without the `_meta` step; untied ones reach only `onNotification`). */
  readonly onLog?: (params: JsonObject) => void;
  /** 2026-07-28: the client capabilities this request declares (default the connection's), e.g. those of the client a proxy fronts. */
  readonly capabilities?: JsonObject;
  /**
   * Who the request is made for, compared by identity (e.g. the client session a proxy serves; default
   * `unattributed.party`, else the request alone). A server's request that is not tied to one request by its
   * stream or progress token goes to a request of ours only when every request that could have caused it,
   * those in flight and those ended in the last {@link LATE_MS}, is made for one party: a late ask of a
   * finished call is never guessed onto another party's call. An untied log message goes to the requests in
   * flight when they are all made for one party.
   */
  readonly party?: unknown;
  /**
   * False while no one hears this request's log messages (a proxy's call parked between 2026-07-28 rounds):
   * it then neither takes an untied log message nor keeps one from the request that can.
   */
  readonly listening?: () => boolean;
}

/** A request in flight that may answer the server's requests and get its log messages. */
interface Route {
  readonly onRequest: ServerRequestHandler | undefined;
  readonly onLog: RequestOptions["onLog"];
  readonly unattributed: UnattributedAsks | undefined;
  /** Its JSON-RPC id (once sent). */
  id: string | undefined;
  /** Its `_meta.progressToken`, when it has one. */
  readonly token: unknown;
  /** Who it is made for ({@link RequestOptions.party}). */
  party: unknown;
  readonly listening: (() => boolean) | undefined;
}

/** A request of ours that ended recently: a server's untied message may still be its. */
interface Ended {
  readonly party: unknown;
  readonly at: number;
  readonly onRequest: boolean;
}

/** How long a request that ended still counts as a possible cause of a server's untied request, ms. */
export const LATE_MS = 10_000;

const DEFAULT_CLIENT_INFO: Implementation = { name: "mcpbin-client", version: "0.1.0" };

/**
 * One connection to one MCP server. Made by {@link connect}; a stateful owner of the transport, the
 * pending requests ({@link Outbound}) and the listeners.
 */
export class McpClient {
  /** `"modern"` (2026-07-28, every request carries its `_meta`) or `"legacy"` (an `initialize`d session). */
  era: "modern" | "legacy" = "legacy";
  /** The protocol version in force. */
  protocolVersion = NEWEST_LEGACY_VERSION as string;
  /** What the server said about itself (legacy `serverInfo`, modern `_meta` serverInfo). */
  serverInfo: Implementation | undefined;
  /** The server's capabilities. */
  serverCapabilities: JsonObject = {};
  /** The server's `instructions`, if it gave any. */
  instructions: string | undefined;
  /** Settles when the connection has ended: undefined after close(), else the error that ended it. */
  readonly closed: Promise<Error | undefined>;

  readonly #transport: ClientTransport;
  readonly #opts: ClientOptions;
  readonly #outbound: Outbound;
  readonly #progress = new Map<string, NonNullable<CallOptions["onProgress"]>>();
  readonly #serving = new Map<RequestId, AbortController>();
  readonly #toolsChanged = new Set<() => void>();
  readonly #notified = new Set<(method: string, params: JsonObject | undefined) => void>();
  /** Per-request answerers of the server's requests, in the order their requests were sent. */
  readonly #routes = new Map<number, Route>();
  /** Requests with a route that ended in the last {@link LATE_MS}, oldest first. */
  #recent: Ended[] = [];
  #nextRoute = 1;
  /** Writes not yet settled: when the connection ends, their requests learn first whether they were sent. */
  readonly #writing = new Set<Promise<void>>();
  #nextToken = 1;
  #listen: AbortController | undefined;
  #tasks: ClientTasks | undefined;
  #ended = false;
  #resolveClosed!: (e: Error | undefined) => void;

  /** @internal use {@link connect}. */
  constructor(transport: ClientTransport, opts: ClientOptions) {
    this.#transport = transport;
    this.#opts = opts;
    this.closed = new Promise((r) => (this.#resolveClosed = r));
    this.#outbound = new Outbound((line) => {
      const w = this.#transport.send(line).catch((e: unknown) => this.#sendFailed(line, e));
      this.#writing.add(w);
      void w.finally(() => this.#writing.delete(w));
    });
  }

  /** Tasks on this server, both eras (src/client/tasks.ts): `call`, `get`, `cancel`, `result`. */
  get tasks(): ClientTasks {
    return (this.#tasks ??= new ClientTasks(this, () => this.#opts.capabilities ?? {}));
  }

  /** The transport's label: the server's configured name or its URL. */
  get label(): string {
    return this.#transport.label;
  }

  /** @internal starts the transport and runs the handshake. */
  async open(): Promise<void> {
    await this.#transport.start({
      line: (text, relatedId) => this.#receive(text, relatedId),
      closed: (e) => this.#end(e),
      oversize: (head, limit) => this.#oversize(head, limit),
    });
    const era = this.#opts.era ?? "auto";
    const budget = this.#opts.startTimeoutMs ?? 10_000;
    const started = performance.now();
    try {
      if (era !== "legacy") {
        // The probe gets at most half the budget (and 5 s): a legacy server that never answers it keeps time to initialize.
        const probe =
          budget === 0 ? (era === "auto" ? 5000 : 0) : era === "auto" ? Math.min(5000, Math.ceil(budget / 2)) : budget;
        const modern = await this.#discover(probe, era === "modern");
        if (modern) return;
      }
      await this.#initialize(budget === 0 ? 0 : Math.max(1, Math.round(budget - (performance.now() - started))));
    } catch (e) {
      if (e instanceof OutboundError && e.code === "timeout")
        throw new OutboundError("timeout", `${this.label}: no answer to the handshake within ${budget} ms`);
      throw e;
    }
  }

  /** `server/discover`: true when the server speaks 2026-07-28; false (auto) or throws (modern only) otherwise. */
  async #discover(timeoutMs: number, required: boolean): Promise<boolean> {
    let r: JsonObject;
    try {
      r = (await this.#outbound.request("server/discover", this.#modernParams({}), { timeoutMs })) as JsonObject;
    } catch (e) {
      if (required || (e instanceof OutboundError && e.code === "closed"))
        throw this.#wrap("server/discover", e, timeoutMs);
      return false;
    }
    const supported = Array.isArray(r?.supportedVersions) ? r.supportedVersions : [];
    if (!supported.includes(MODERN_VERSION)) {
      if (required)
        throw new OutboundError(
          "unavailable",
          `${this.label}: the server does not speak ${MODERN_VERSION} (supported: ${supported.join(", ")})`,
        );
      return false;
    }
    this.era = "modern";
    this.protocolVersion = MODERN_VERSION;
    this.serverCapabilities = (r.capabilities as JsonObject) ?? {};
    this.instructions = typeof r.instructions === "string" ? r.instructions : undefined;
    this.serverInfo =
      ((r._meta as JsonObject | undefined)?.[META_KEYS.serverInfo] as Implementation) ??
      (r.serverInfo as Implementation | undefined);
    return true;
  }

  /** `initialize` at the newest legacy version, accepting any legacy version the server answers with (basic/lifecycle). */
  async #initialize(timeoutMs: number): Promise<void> {
    let r: JsonObject;
    try {
      r = (await this.#outbound.request(
        "initialize",
        {
          protocolVersion: NEWEST_LEGACY_VERSION,
          capabilities: this.#opts.capabilities ?? {},
          clientInfo: this.#opts.clientInfo ?? DEFAULT_CLIENT_INFO,
        },
        { timeoutMs },
      )) as JsonObject;
    } catch (e) {
      throw this.#wrap("initialize", e, timeoutMs);
    }
    const v = r?.protocolVersion;
    if (typeof v !== "string" || !(LEGACY_VERSIONS as readonly string[]).includes(v)) {
      throw new OutboundError(
        "unavailable",
        `${this.label}: the server answered initialize with protocol version ${JSON.stringify(v)}, which this client does not speak (it speaks ${LEGACY_VERSIONS.join(", ")})`,
      );
    }
    this.era = "legacy";
    this.protocolVersion = v;
    this.serverCapabilities = (r.capabilities as JsonObject) ?? {};
    this.serverInfo = r.serverInfo as Implementation | undefined;
    this.instructions = typeof r.instructions === "string" ? r.instructions : undefined;
    this.#transport.negotiated?.(v);
    await this.#transport.send(notificationLine("notifications/initialized", {}));
  }

  /** `params` with the 2026-07-28 `_meta` every modern request carries (MCP 2026-07-28 basic/versioning "Protocol Version Negotiation"), the caller's `_meta` kept. */
  #modernParams(params: JsonObject, capabilities?: JsonObject): JsonObject {
    const given = params._meta as JsonObject | undefined;
    return {
      ...params,
      _meta: {
        ...given,
        [META_KEYS.protocolVersion]: MODERN_VERSION,
        [META_KEYS.clientCapabilities]: capabilities ?? this.#opts.capabilities ?? {},
        [META_KEYS.clientInfo]: this.#opts.clientInfo ?? DEFAULT_CLIENT_INFO,
      },
    };
  }

  /**
   * Sends any request in the era in force and waits for its result.
   * @param method - e.g. `tools/list`.
   * @param params - its params (without the era's `_meta`, which is added).
   * @param opts - signal and time limit (default the connection's).
   * @returns the result as the server sent it.
   * @throws OutboundError: "rpc" (the server's error, in `rpc`), "timeout", "cancelled", "closed", "unavailable"; the message names the server.
   */
  async request(method: string, params: JsonObject = {}, opts: RequestOptions = {}): Promise<JsonObject> {
    const p =
      this.era === "modern"
        ? this.#modernParams(params, opts.capabilities)
        : Object.keys(params).length === 0 && method === "ping"
          ? undefined
          : params;
    const route = opts.onRequest || opts.onLog ? this.#nextRoute++ : 0;
    let onId: ((id: string) => void) | undefined;
    if (route) {
      const token = (params._meta as JsonObject | undefined)?.progressToken;
      const r: Route = {
        onRequest: opts.onRequest,
        onLog: opts.onLog,
        unattributed: opts.unattributed,
        id: undefined,
        token,
        party: undefined,
        listening: opts.listening,
      };
      r.party = opts.party ?? opts.unattributed?.party ?? r;
      this.#routes.set(route, r);
      onId = (id) => (r.id = id);
    }
    try {
      const r = (await this.#outbound.request(method, p, {
        signal: opts.signal,
        timeoutMs: opts.timeoutMs ?? this.#opts.timeoutMs ?? 60_000,
        onId,
      })) as JsonObject;
      const answer = opts.onRequest ?? this.#opts.onRequest;
      return r?.resultType === "input_required" && answer && this.era === "modern"
        ? await this.#rounds(method, params, r, answer, opts)
        : r;
    } catch (e) {
      throw this.#wrap(method, e, opts.timeoutMs ?? this.#opts.timeoutMs ?? 60_000);
    } finally {
      if (route) {
        const r = this.#routes.get(route)!;
        this.#routes.delete(route);
        if (r.onRequest) this.#recent.push({ party: r.party, at: performance.now(), onRequest: true });
        if (this.#recent.length > 256) this.#recent.shift();
      }
    }
  }

  /**
   * 2026-07-28 multi round-trip (basic/patterns/mrtr): answers each of the server's `inputRequests` with
   * `answer` and retries with `inputResponses` and its `requestState`, at most 16 rounds.
   * @throws OutboundError "rpc" when an answer fails (its error), "unavailable" after 16 rounds.
   */
  async #rounds(
    method: string,
    params: JsonObject,
    first: JsonObject,
    answer: ServerRequestHandler,
    opts: RequestOptions,
  ): Promise<JsonObject> {
    let r = first;
    for (let round = 0; round < 16 && r?.resultType === "input_required"; round++) {
      const asked = (r.inputRequests ?? {}) as Record<string, { method?: unknown; params?: unknown }>;
      const inputResponses: JsonObject = {};
      const ac = new AbortController();
      const signal = opts.signal ? AbortSignal.any([opts.signal, ac.signal]) : ac.signal;
      try {
        // All at once: a proxy in front of a 2026-07-28 client asks them in one round of its own.
        const answers = await Promise.all(
          Object.entries(asked).map(([key, q]) =>
            answer(String(q?.method), q?.params as JsonObject | undefined, { signal, key }),
          ),
        );
        Object.keys(asked).forEach((key, i) => (inputResponses[key] = answers[i]));
      } catch (e) {
        ac.abort();
        const rpc =
          e instanceof RpcError
            ? { code: e.code, message: e.message, data: e.data }
            : { code: ErrorCode.InternalError, message: (e as Error)?.message ?? String(e) };
        throw new OutboundError(
          "rpc",
          `${this.label}: ${method}: the input it asked for could not be given: ${rpc.message}`,
          rpc,
        );
      }
      const next: JsonObject = { ...params, inputResponses };
      if (r.requestState !== undefined) next.requestState = r.requestState;
      r = (await this.#outbound.request(method, this.#modernParams(next, opts.capabilities), {
        signal: opts.signal,
        timeoutMs: opts.timeoutMs ?? this.#opts.timeoutMs ?? 60_000,
      })) as JsonObject;
    }
    if (r?.resultType === "input_required")
      throw new OutboundError("unavailable", `${this.label}: ${method}: still asking for input after 16 rounds`);
    return r;
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
      this.#progress.set(token, opts.onProgress);
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
      if (token !== undefined) this.#progress.delete(token);
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
  async close(): Promise<void> {
    this.#listen?.abort();
    this.#end(undefined);
    await this.#transport.close();
  }

  #end(error: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    const reason = error ? error.message : "the connection was closed";
    // A request whose write is still under way fails as unsent if the write fails (the process was already
    // gone), else as closed: a caller may retry only what the server never got. At most a second is waited.
    if (this.#writing.size === 0) this.#outbound.close(reason);
    else
      void Promise.race([Promise.allSettled([...this.#writing]), Bun.sleep(1000)]).then(() =>
        this.#outbound.close(reason),
      );
    for (const ac of this.#serving.values()) ac.abort();
    this.#serving.clear();
    this.#progress.clear();
    this.#resolveClosed(error);
  }

  /**
   * A send that failed (the process is gone, HTTP refused): its request fails now instead of waiting for its
   * time limit, as "closed" and marked unsent (the server never got it, so a retry cannot repeat an effect).
   */
  #sendFailed(line: string, e: unknown): void {
    let id: unknown;
    try {
      const m = JSON.parse(line) as { id?: unknown; method?: unknown };
      id = m.method !== undefined ? m.id : undefined;
    } catch {
      return;
    }
    if (id === undefined) return;
    this.#outbound.fail(
      id as RequestId,
      new OutboundError(
        "closed",
        `${this.label}: the request could not be sent: ${(e as Error)?.message ?? String(e)}`,
        undefined,
        true,
      ),
    );
  }

  #wrap(method: string, e: unknown, timeoutMs?: number): Error {
    if (!(e instanceof OutboundError)) return e as Error;
    const where = `${this.label}: ${method}`;
    switch (e.code) {
      case "rpc":
        return new OutboundError("rpc", `${where} failed: ${e.rpc?.message ?? "error"} (${e.rpc?.code})`, e.rpc);
      case "timeout":
        return new OutboundError(
          "timeout",
          timeoutMs === undefined ? `${where}: no answer in time` : `${where}: no answer within ${timeoutMs} ms`,
        );
      case "cancelled":
        return new OutboundError("cancelled", `${where}: cancelled`);
      default:
        return new OutboundError(e.code, `${where}: ${e.message.replace(/^[^:]*: /, "")}`, e.rpc, e.unsent);
    }
  }

  /**
   * A message the transport dropped as too large, known by its first bytes: when it answers a request of
   * ours, that request fails now (with the limit) instead of waiting for its time limit.
   */
  #oversize(head: string, limit: number): void {
    const m = /^\s*\{(?:(?!"method")[^])*?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(head);
    if (!m || /"method"\s*:/.test(head.slice(0, m.index + m[0].length))) return;
    let id: unknown;
    try {
      id = JSON.parse(m[1]!);
    } catch {
      return;
    }
    this.#outbound.deliver({
      jsonrpc: "2.0",
      id: id as RequestId,
      error: {
        code: ErrorCode.InternalError,
        message: `the server's answer was over ${limit} bytes and was dropped unread`,
      },
    } as never);
  }

  /** One message from the server. */
  #receive(text: string, relatedId?: RequestId): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      process.stderr.write(`${logName()}: [${this.label}] ignored a line that is not JSON\n`);
      return;
    }
    for (const v of Array.isArray(value) ? value : [value]) {
      const env = checkEnvelope(v);
      if (env.kind === "response") this.#outbound.deliver(env.response);
      else if (env.kind === "message") {
        const { id, method } = env.message;
        const params = env.message.params as JsonObject | undefined;
        if (id === undefined) this.#notification(method, params, relatedId);
        else void this.#serverRequest(id, method, params, relatedId);
      }
    }
  }

  /**
   * The request in flight that a server's request or log message belongs to ({@link RequestOptions.onRequest}):
   * `found` when tied to one; otherwise the requests in flight that could have caused it (oldest first), and
   * `mixed` when those (for a request, with the requests ended in the last {@link LATE_MS}) are made for more than one party
   * (then it belongs to none of them: it is never guessed).
   */
  #routeOf(
    has: "onRequest" | "onLog",
    params: JsonObject | undefined,
    relatedId: RequestId | undefined,
    byToken: boolean,
  ): { found?: Route; candidates: Route[]; mixed?: boolean } {
    const candidates: Route[] = [];
    for (const r of this.#routes.values())
      if (r[has] && (has !== "onLog" || r.listening?.() !== false)) candidates.push(r);
    if (relatedId !== undefined) {
      const r = candidates.find((c) => c.id === relatedId);
      if (r) return { found: r, candidates };
    }
    const token = byToken ? (params?._meta as JsonObject | undefined)?.progressToken : undefined;
    if (token !== undefined) {
      const r = candidates.find((c) => c.token === token);
      if (r) return { found: r, candidates };
    }
    const since = performance.now() - LATE_MS;
    while (this.#recent.length > 0 && this.#recent[0]!.at < since) this.#recent.shift();
    const parties = new Set(candidates.map((c) => c.party));
    // An ask may come late from a call that has ended: those count too. A log message goes to the calls in flight
    // (one client's calls only), so that one client's log messages are not lost for a while after another's call.
    if (has === "onRequest") for (const e of this.#recent) if (e.onRequest) parties.add(e.party);
    if (parties.size > 1) return { candidates, mixed: true };
    return candidates.length === 1 ? { found: candidates[0], candidates } : { candidates };
  }

  /** The shared party's unattributed handler when every candidate gives one for the same party. */
  static #shared(candidates: readonly Route[]): UnattributedAsks | undefined {
    const u = candidates[0]?.unattributed;
    return u && candidates.every((c) => c.unattributed?.party === u.party) ? u : undefined;
  }

  #notification(method: string, params: JsonObject | undefined, relatedId?: RequestId): void {
    if (method === "notifications/progress" && params) {
      const cb = this.#progress.get(params.progressToken as string);
      if (cb && typeof params.progress === "number") {
        const p: { progress: number; total?: number; message?: string } = { progress: params.progress };
        if (typeof params.total === "number") p.total = params.total;
        if (typeof params.message === "string") p.message = params.message;
        cb(p);
      }
    } else if (method === "notifications/tools/list_changed") {
      for (const l of [...this.#toolsChanged]) l();
    } else if (method === "notifications/message" && params) {
      const { found, candidates, mixed } = this.#routeOf("onLog", params, relatedId, false);
      (found ?? (!mixed && McpClient.#shared(candidates) ? candidates[0] : undefined))?.onLog!(params);
    } else if (method === "notifications/cancelled" && params) {
      this.#serving.get(params.requestId as RequestId)?.abort();
    }
    this.#opts.onNotification?.(method, params);
    for (const l of [...this.#notified]) l(method, params);
  }

  /**
   * A request from the server: `ping` answered here, the rest by the request in flight that caused it, tied
   * as {@link RequestOptions.onRequest} says, else the connection's `onRequest` (else -32601, or -32603 when
   * several requests in flight could have caused it).
   */
  async #serverRequest(
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    relatedId: RequestId | undefined,
  ): Promise<void> {
    let line: string;
    let answer: ServerRequestHandler | undefined;
    let untied = 0;
    let mixed = false;
    if (method !== "ping") {
      const r = this.#routeOf("onRequest", params, relatedId, true);
      mixed = r.mixed === true;
      answer =
        r.found?.onRequest ?? (mixed ? undefined : McpClient.#shared(r.candidates)?.onRequest) ?? this.#opts.onRequest;
      if (!r.found) untied = r.candidates.length;
    }
    if (method === "ping") line = resultLine(id, {});
    else if (!answer && (untied > 1 || mixed)) {
      const among = mixed
        ? "one client's requests (requests of several clients are in flight or just ended)"
        : `one of the ${untied} requests in flight`;
      line = errorLine(
        id,
        new RpcError(
          ErrorCode.InternalError,
          `${method} could not be attributed to ${among} to ${this.label} (a server's request over stdio names no request; over Streamable HTTP it rides on its request's stream), so no client was asked`,
        ),
      );
    } else if (!answer) line = errorLine(id, new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`));
    else {
      const ac = new AbortController();
      this.#serving.set(id, ac);
      try {
        line = resultLine(id, await answer(method, params, { signal: ac.signal }));
      } catch (e) {
        line = errorLine(
          id,
          e instanceof RpcError ? e : new RpcError(ErrorCode.InternalError, (e as Error)?.message ?? String(e)),
        );
      } finally {
        this.#serving.delete(id);
      }
      if (ac.signal.aborted) return;
    }
    await this.#transport.send(line).catch(() => {});
  }
}
