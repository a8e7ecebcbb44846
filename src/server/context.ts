/** @module The context of one request: who asks, in which era and version, and the ways back to the client (notify, request, signal). */
import { notificationLine, type RequestId } from "../protocol/jsonrpc.ts";
import { META } from "../protocol/meta.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import type { ServerHandle, ToolContext } from "../tools/types.ts";
import { AskError } from "../ask/errors.ts";
import { LegacyAsker } from "../ask/legacy.ts";
import { ModernAsker } from "../ask/replay.ts";
import type {
  Asker,
  ElicitFormRequest,
  ElicitFormResult,
  ElicitObjectSchema,
  ElicitUrlRequest,
  ElicitUrlResult,
  Root,
  RootsRequest,
  SampleRequest,
  SampleResult,
} from "../ask/types.ts";
import type * as v from "valibot";
import { OutboundError, type Outbound, type OutboundOptions } from "./outbound.ts";
import type { ClientInfo } from "./middleware-api.ts";
import type { Catalog } from "../content/catalog.ts";
import type { App } from "../apps/app.ts";
import type { Tool } from "../tools/types.ts";
import type { ResolvedOptions } from "./options.ts";
import type { AuthInfo } from "../shared/auth.ts";

export type { ClientInfo };
import { logParams, logPasses, type LoggingLevel } from "../protocol/logging.ts";

/** The era of a request: a session negotiated by `initialize`, or a stateless 2026-07-28 request. */
export type Era = "legacy" | "modern";

/** What a transport knows about a request beyond its JSON-RPC message. */
export interface RequestExtras {
  /** The legacy HTTP session (Mcp-Session-Id). */
  readonly session?: { readonly id: string };
  /** The HTTP request's headers. */
  readonly http?: { readonly headers: Headers };
  /** The caller the request was authorized as (the bearer token, and with OAuth its verified claims). */
  readonly auth?: AuthInfo;
}

/** The connection a request arrived on, as a request sees it (src/server/dispatcher.ts Session implements it). */
export interface Connection {
  /** The server: its tools, identity and options. */
  readonly registry: ServerState;
  /** Its methods. */
  readonly table: MethodTable;
  /** The legacy version negotiated by `initialize`, once it has been. */
  version: string | undefined;
  /** The client as `initialize` described it, once it has. */
  client: ClientInfo | undefined;
  /** Requests to the client on this connection. */
  readonly outbound: Outbound;
  /** Sends a line to the client; `relatedId` names the request it belongs to (HTTP routes it to that request's stream); `replaceable` lets a newer line of that request replace it while unsent (progress). */
  send(line: string, relatedId: RequestId | undefined, replaceable?: boolean): void;
  /** The level `logging/setLevel` asked for (legacy era), once it has. */
  logLevel: LoggingLevel | undefined;
}

/**
 * One MCP method in a room of its own (src/server/methods/<method>.ts). The pipeline checks
 * everything declared here before `handle` runs; errors from these checks come from the table.
 * @typeParam P - the params `handle` receives (the schema's output).
 * @typeParam R - the version-neutral result `handle` returns.
 */
export interface MethodSpec<P = any, R = any> {
  /** The method name, as the spec spells it (e.g. `tools/call`). */
  readonly name: string;
  /** The eras that have it. */
  readonly eras: readonly Era[];
  /** The legacy versions that have it (default: every one); the modern era is one version. */
  readonly versions?: readonly string[];
  /** Answered before `initialize` in the legacy era (`initialize`, `ping`). */
  readonly beforeInitialize?: boolean;
  /** The server capability it belongs to (a {@link CapabilitySpec} name): not advertised → -32601. */
  readonly capability?: string;
  /**
   * Its params (valibot). Arrays arrive as `null`, absent params as `undefined`. The first issue's
   * message is the -32602 message: give messages that start with "Invalid params:".
   */
  readonly params?: v.GenericSchema<unknown, P>;
  /**
   * A hot path's shortcut for {@link params}: the params when they plainly pass the schema (returned
   * as they are), else undefined, and the schema then decides (and words the error). It must accept
   * nothing the schema refuses.
   */
  readonly accepts?: (params: unknown) => P | undefined;
  /**
   * Handles one request. Throw an RpcError for a wire error. A promise makes the request one in
   * flight (src/server/calls.ts): cancellable, counted, with a time limit when {@link timeoutMs} says so.
   */
  handle(params: P, ctx: RequestContext): R | PromiseLike<R>;
  /** The response line of a result (default: {@link completeResult} of an object, or a {@link ProjectedJson} as is). */
  line?(id: RequestId, result: R, ctx: RequestContext): string;
  /** Whether 2026-07-28 results carry cache hints (default false). */
  readonly cacheable?: boolean;
  /** The time limit of a request in flight, ms (0 or absent: none). */
  timeoutMs?(params: P, ctx: RequestContext): number;
  /** The result of a request that ran out of time (default: a -32603 error). */
  timedOut?(ms: number, params: P, ctx: RequestContext): R;
  /** The result of a request aborted by shutdown or a session's end (default: a -32603 error). */
  aborted?(reason: string, ctx: RequestContext): R;
}

/** A notification the server acts on (e.g. `notifications/cancelled`); unknown notifications are ignored. */
export interface NotificationSpec {
  readonly name: string;
  /** Handles it; must not throw (a notification gets no answer). */
  handle(
    params: Record<string, unknown> | undefined,
    connection: Connection,
    calls: { cancel(id: unknown, reason: string | undefined): void },
  ): void;
}

/** One server capability: advertised by `initialize` and `server/discover` when `advertise` gives a value. */
export interface CapabilitySpec {
  /** The capability's key, e.g. `tools`. */
  readonly name: string;
  /** Its value for this server (e.g. `{}` or `{ listChanged: true }`), or undefined to not advertise it. */
  advertise(registry: ServerState): Record<string, unknown> | undefined;
}

/** The methods, notifications and capabilities of a server. */
export interface MethodTable {
  readonly methods: ReadonlyMap<string, MethodSpec>;
  readonly notifications: ReadonlyMap<string, NotificationSpec>;
  readonly capabilities: readonly CapabilitySpec[];
  /** The capabilities advertised for a server, computed once per registry. */
  advertised(registry: ServerState): Readonly<Record<string, Record<string, unknown>>>;
}

/** The chain's entry, as the pipeline calls it instead of invoke(). */
export type Chain = (method: string, params: unknown, ctx: RequestContext) => Promise<unknown>;

/**
 * The server as the pipeline sees it: what src/server/registry.ts's Registry has (it implements this), so
 * the request context and the method table need not import the Registry that builds them.
 */
export interface ServerState extends ServerHandle {
  readonly options: ResolvedOptions;
  /** The server object (createServer()) the registry belongs to: what `ctx.server` is. */
  server: ServerHandle | undefined;
  /** The middleware chain, when the options gave any (the pipeline calls it instead of invoke()). */
  readonly middleware: Chain | undefined;
  /** Whether `initialize` advertises `tools.listChanged`. */
  listChanged: boolean;
  /** Why a tool of a name may be missing (added to `Unknown tool`), when the server knows. */
  readonly unknownToolNote?: (name: string) => string | undefined;
  /** Its resources, resource templates and prompts. */
  readonly content: Catalog;
  /** The MCP Apps it serves, by URI. */
  readonly apps: ReadonlyMap<string, App>;
  /** `_meta` of every modern result, and that serialized once. */
  readonly modernMeta: Record<string, unknown>;
  readonly modernMetaJson: string;
  /** `serverInfo` for a version. */
  serverInfo(f: VersionFeatures): Record<string, unknown>;
  /** Replaces the tool set, naming what changed. */
  replaceTools(next: readonly Tool[]): { added: string[]; removed: string[]; changed: string[] };
  /** A legacy session told `listChanged`, and its end. */
  watch(conn: Connection): void;
  unwatch(conn: Connection): void;
  /** A 2026-07-28 listen stream's callback when the tools change; returns its removal. */
  onToolsChanged(fn: () => void): () => void;
  /** True when some tool is visible only to apps. */
  readonly appOnlyTools: boolean;
  /** Whether some tool declares OAuth `scopes` (its lists differ between callers). */
  readonly scopedTools: boolean;
  /** The tools a version lists. */
  listedTools(f: VersionFeatures): Tool[];
}

const NO_EXTRAS: RequestExtras = Object.freeze({});

/** A client's Implementation with its name and version at the top (`ctx.client.name`). */
export function withNames(info: Record<string, unknown>, capabilities: Readonly<Record<string, unknown>>): ClientInfo {
  const name = typeof info.name === "string" ? info.name : undefined;
  const version = typeof info.version === "string" ? info.version : undefined;
  return { name, version, info, capabilities };
}
const NO_CAPABILITIES: Readonly<Record<string, unknown>> = Object.freeze({});

/** A 2026-07-28 request whose method cannot carry input_required (MCP basic/patterns/mrtr "Supported Requests"). */
const noAsk = (): Promise<never> =>
  Promise.reject(
    new AskError(
      "unsupported",
      "this request cannot ask the client (2026-07-28: only tools/call, prompts/get and resources/read may)",
    ),
  );
const NO_ASKS: Asker = {
  elicit: noAsk as Asker["elicit"],
  sample: noAsk,
  roots: noAsk,
  clientCapabilities: NO_CAPABILITIES,
};

/**
 * One request being served, built once when it arrives: handlers receive it as `ctx`, and a tool's
 * `run` receives it as its {@link ToolContext}. Created for every request (one allocation); the
 * abort controller only on first use of {@link signal}.
 */
export class RequestContext implements ToolContext {
  /** The request's JSON-RPC id. */
  readonly requestId: RequestId;
  /** Set once the request's response is decided (progress after it is dropped). */
  done = false;
  /** The method's table entry, once invoke() has looked it up. */
  spec: MethodSpec | undefined = undefined;
  /** The params as the entry's schema checked them, once invoke() has. */
  params: unknown = undefined;
  /** The 2026-07-28 round of a request that may ask (src/ask/rounds.ts owns what it is). */
  round: object | undefined = undefined;
  /** The task this call runs as (set by the tasks capability, src/tasks/). */
  taskId: string | undefined = undefined;
  /** What {@link startTask} does for this request (set by the tasks capability for a `deferTask` tool). */
  taskStarter: (() => Promise<void>) | undefined = undefined;
  /** The legacy HTTP session, when there is one. */
  readonly session?: { readonly id: string };
  /** The HTTP request's headers, over HTTP. */
  readonly http?: { readonly headers: Headers };
  /** The caller, when the request was authorized (the bearer token; with OAuth the verified identity and scopes). */
  readonly auth?: AuthInfo;
  #controller: AbortController | undefined;
  #lastProgress: number | undefined;
  #asker: Asker | undefined;
  #lazyAsker: { make(): Asker } | undefined;

  /**
   * @param connection - where the request arrived.
   * @param id - its JSON-RPC id.
   * @param method - its method.
   * @param era - legacy or modern.
   * @param features - the version in force (for a legacy request before `initialize`: the newest legacy version).
   * @param meta - its `params._meta`, when an object.
   * @param extras - what the transport knows (headers, session, token).
   */
  constructor(
    readonly connection: Connection,
    id: RequestId,
    readonly method: string,
    readonly era: Era,
    readonly features: VersionFeatures,
    readonly meta: Record<string, unknown> | undefined,
    extras: RequestExtras = NO_EXTRAS,
  ) {
    this.requestId = id;
    if (extras !== NO_EXTRAS) {
      this.session = extras.session;
      this.http = extras.http;
      this.auth = extras.auth;
    }
  }

  /** See ToolContext.startTask: runs the call as a task from here on (a no-op when it cannot be one or already is). */
  startTask(): Promise<void> {
    return this.taskStarter?.() ?? Promise.resolve();
  }

  /** The protocol version in force for this request. */
  get protocolVersion(): string {
    return this.features.version;
  }

  /** The server (made by createServer(), or by serve()): its tools, which may be changed while it serves. */
  get server(): ServerHandle {
    const r = this.connection.registry;
    return r.server ?? r;
  }

  /** The client: legacy from `initialize`, 2026-07-28 from this request's `_meta`. */
  get client(): ClientInfo {
    if (this.era === "modern") {
      const info = this.meta![META.clientInfo];
      const capabilities = this.meta![META.clientCapabilities] as Record<string, unknown>;
      return info !== null && typeof info === "object"
        ? withNames(info as Record<string, unknown>, capabilities)
        : { capabilities };
    }
    return this.connection.client ?? { capabilities: NO_CAPABILITIES };
  }

  /** Aborted when the client cancels the request, it times out, or the server shuts down. */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  /**
   * Aborts {@link signal} (calls.ts: cancellation, timeout, shutdown).
   * @param reason - the abort reason handlers see.
   */
  abort(reason: Error): void {
    (this.#controller ??= new AbortController()).abort(reason);
  }

  /**
   * Sends a notification tied to this request (progress, logging), while it runs.
   * @param method - e.g. `notifications/message`.
   * @param params - its params.
   */
  notify(method: string, params: Record<string, unknown>): void {
    if (!this.done)
      this.connection.send(notificationLine(method, params), this.requestId, method === "notifications/progress");
  }

  /**
   * Sends a log message (MCP server/utilities/logging, `notifications/message`) when the client asked
   * for this level or a less severe one: legacy with `logging/setLevel`, 2026-07-28 with this request's
   * `_meta["io.modelcontextprotocol/logLevel"]` (absent: nothing is sent). Only while the request runs.
   * @param level - the severity.
   * @param data - any JSON value: a string or an object.
   * @param logger - the logger's name, optional.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const min =
      this.era === "modern" ? (this.meta?.[META.logLevel] as LoggingLevel | undefined) : this.connection.logLevel;
    if (!logPasses(level, min) || this.done) return;
    this.connection.send(
      notificationLine(
        "notifications/message",
        logParams(level, data, typeof logger === "string" ? logger : undefined),
      ),
      this.requestId,
    );
  }

  /**
   * Reports progress (MCP basic/utilities/progress): only when the request carried a `progressToken`,
   * only while it runs, only finite values that increase.
   */
  progress(progress: number, total?: number, message?: string): void {
    const token = this.meta?.progressToken;
    if (
      (typeof token !== "string" && !Number.isSafeInteger(token)) ||
      this.done ||
      typeof progress !== "number" ||
      !Number.isFinite(progress)
    )
      return;
    if (this.#lastProgress !== undefined && progress <= this.#lastProgress) return;
    this.#lastProgress = progress;
    const p: Record<string, unknown> = { progressToken: token, progress };
    if (typeof total === "number" && Number.isFinite(total)) p.total = total;
    if (typeof message === "string" && this.features.progressMessage) p.message = message;
    this.connection.send(notificationLine("notifications/progress", p), this.requestId, true);
  }

  /**
   * Who answers this request's asks: set by a 2026-07-28 method that may ask (tools/call: the round's
   * ModernAsker); otherwise made on first use (legacy: server → client requests; 2026-07-28 elsewhere: none).
   */
  set asker(a: Asker) {
    this.#asker = a;
  }

  /**
   * Like {@link asker}, made on first use by `lazy.make()`: a 2026-07-28 round with no `requestState`
   * or `inputResponses` to verify (src/ask/rounds.ts), since most calls never ask.
   */
  askLater(lazy: { make(): Asker }): void {
    this.#lazyAsker = lazy;
  }

  get #ask(): Asker {
    return (this.#asker ??=
      this.#lazyAsker !== undefined
        ? this.#lazyAsker.make()
        : this.era === "legacy"
          ? new LegacyAsker(this, this.connection.registry.options.askTimeoutMs)
          : NO_ASKS);
  }

  /** The capabilities the client declared (legacy: at `initialize`; 2026-07-28: this request's `_meta`). */
  get clientCapabilities(): Readonly<Record<string, unknown>> {
    return this.client.capabilities;
  }

  /** Asks the user (MCP client/elicitation); see {@link Asker.elicit}. */
  elicit<S extends ElicitObjectSchema>(request: ElicitFormRequest<S>): Promise<ElicitFormResult<v.InferOutput<S>>>;
  elicit(request: ElicitUrlRequest): Promise<ElicitUrlResult>;
  elicit(request: ElicitFormRequest<ElicitObjectSchema> | ElicitUrlRequest): Promise<unknown> {
    return this.#ask.elicit(request as ElicitUrlRequest);
  }

  /** Asks the client's model (MCP client/sampling); see {@link Asker.sample}. */
  sample(request: SampleRequest): Promise<SampleResult> {
    return this.#ask.sample(request);
  }

  /** The client's roots (MCP client/roots); see {@link Asker.roots}. */
  roots(request?: RootsRequest): Promise<Root[]> {
    return this.#ask.roots(request);
  }

  /** Forwards another server's ask as it is; see {@link Asker.forward}. */
  forward(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: { readonly timeoutMs?: number; readonly key?: string },
  ): Promise<Record<string, unknown>> {
    const a = this.#ask;
    return a.forward
      ? a.forward(method, params, options)
      : Promise.reject(
          new AskError(
            "unsupported",
            "this request cannot ask the client (2026-07-28: only tools/call, prompts/get and resources/read may)",
          ),
        );
  }

  /** 2026-07-28: the id of the call that this request's round belongs to (the same in every round of it); undefined otherwise. */
  get callId(): string | undefined {
    if (this.era !== "modern") return undefined;
    const a = this.#ask;
    return a instanceof ModernAsker ? a.callId : undefined;
  }

  /**
   * Sends a request to the client and waits for its answer (legacy era only: a 2026-07-28 server
   * never writes requests: MCP 2026-07-28 basic/patterns/mrtr). Cancelled with this request's signal as well as `options.signal`.
   * @param method - e.g. `roots/list`, `sampling/createMessage`, `elicitation/create`, `ping`.
   * @param params - its params.
   * @param options - signal and time limit (ms).
   * @returns the client's result.
   * @throws OutboundError (as a rejection): see {@link Outbound.request}; "unavailable" in the 2026-07-28 era.
   */
  request(
    method: string,
    params?: Record<string, unknown>,
    options: Omit<OutboundOptions, "relatedId"> = {},
  ): Promise<unknown> {
    if (this.era === "modern")
      return Promise.reject(
        new OutboundError(
          "unavailable",
          `${method}: a ${this.features.version} server sends no requests to the client (use an input_required result)`,
        ),
      );
    const signal = options.signal ? AbortSignal.any([this.signal, options.signal]) : this.signal;
    return this.connection.outbound.request(method, params, {
      signal,
      timeoutMs: options.timeoutMs,
      relatedId: this.requestId,
    });
  }
}
