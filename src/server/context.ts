/** @module The context of one request: who asks, in which era and version, and the ways back to the client (notify, log, progress, request, signal); capabilities add their own members. */
import { notificationLine, type RequestId } from "../protocol/jsonrpc.ts";
import { logParams, logPasses, type LoggingLevel } from "../protocol/logging.ts";
import { META } from "../protocol/meta.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import type { AuthInfo } from "../shared/auth.ts";
import type { ClientInfo, Connection, Era, RequestExtras, ServerHandle } from "./connection.ts";
import { OutboundError, type OutboundOptions } from "./outbound.ts";

export type { ClientInfo, Connection, RequestExtras, ServerState } from "./connection.ts";

const NO_EXTRAS: RequestExtras = Object.freeze({});
const NO_CAPABILITIES: Readonly<Record<string, unknown>> = Object.freeze({});

/** A client's Implementation with its name and version at the top (`ctx.client.name`). */
export function withNames(info: Record<string, unknown>, capabilities: Readonly<Record<string, unknown>>): ClientInfo {
  const name = typeof info.name === "string" ? info.name : undefined;
  const version = typeof info.version === "string" ? info.version : undefined;
  return { name, version, info, capabilities };
}

/**
 * One request being served, built once when it arrives: handlers receive it as `ctx`, and a tool's
 * `run` receives it as its ToolContext (src/tools/types.ts). Created for every request (one allocation); the
 * abort controller only on first use of {@link signal}. The core's members are here; a capability adds its own
 * by augmenting this class's interface from its folder and setting them on its prototype (src/ask/context.ts:
 * `elicit`, `sample`, `roots`; src/tasks/context.ts: `taskId`, `startTask`), or keeps per-request state in a
 * slot (src/server/slot.ts).
 */
export class RequestContext {
  /** The request's JSON-RPC id. */
  readonly requestId: RequestId;
  /** Set once the request's response is decided (progress after it is dropped). */
  done = false;
  /** The legacy HTTP session, when there is one. */
  readonly session?: { readonly id: string };
  /** The HTTP request's headers, over HTTP. */
  readonly http?: { readonly headers: Headers };
  /** The caller, when the request was authorized (the bearer token; with OAuth the verified identity and scopes). */
  readonly auth?: AuthInfo;
  #controller: AbortController | undefined;
  #lastProgress: number | undefined;

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

  /** The capabilities the client declared (legacy: at `initialize`; 2026-07-28: this request's `_meta`). */
  get clientCapabilities(): Readonly<Record<string, unknown>> {
    return this.client.capabilities;
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
