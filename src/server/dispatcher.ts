/** @module The pipeline of one connection: line → envelope → era and version → method table → projection → response line; no I/O. */
import { logLine } from "../runtime/log-name.ts";
import {
  checkEnvelope,
  errorLine,
  ErrorCode,
  RpcError,
  type Message,
  type Reply,
  type RequestId,
} from "../protocol/jsonrpc.ts";
import { checkClaim, eraOf, META, metaOf, paramsObject } from "../protocol/meta.ts";
import { FEATURES, MODERN_VERSION, NEWEST_LEGACY_VERSION } from "../protocol/versions.ts";
import { tracing } from "../telemetry/state.ts";
import { Calls } from "./calls.ts";
import { RequestContext, type ClientInfo, type Connection, type RequestExtras } from "./context.ts";
import { invoke, lineOf, type MethodTable } from "./method.ts";
import "./methods/index.ts";
import { closedRegistered, currentTable, spanTargetRegistered } from "./register.ts";
import { Outbound } from "./outbound.ts";
import type { Registry } from "./registry.ts";
import { isLogLevel, LOG_LEVELS, type LoggingLevel } from "../protocol/logging.ts";

export type { Reply } from "../protocol/jsonrpc.ts";

/**
 * Sends a line tied to an in-flight request (a notification such as progress, or a request to the
 * client). `requestId` names that request, so a transport with one stream per request (HTTP) can
 * route the line to it; stdio ignores it. Undefined: tied to no request. `replaceable`: a newer line of the same
 * request may replace this one while it is unsent (progress), so a slow reader gets the latest, not a backlog.
 */
export type Notify = (line: string, requestId: RequestId | undefined, replaceable?: boolean) => void;

const MODERN = FEATURES.get(MODERN_VERSION)!;
const UNNEGOTIATED = FEATURES.get(NEWEST_LEGACY_VERSION)!;

/**
 * The state of one connection (stdio: the process; HTTP: one legacy session or one stateless
 * request) and the pipeline over it. Messages are dispatched in arrival order; only handlers that
 * return a promise (tool calls) run concurrently.
 */
export class Session implements Connection {
  /** The legacy version negotiated by `initialize`, once it has been. */
  version: string | undefined;
  /** The client as `initialize` described it. */
  client: ClientInfo | undefined;
  /** Requests to the client (legacy era). */
  readonly outbound: Outbound;
  /** Requests in flight. */
  readonly calls = new Calls();
  /** The level `logging/setLevel` set (legacy era). */
  logLevel: LoggingLevel | undefined;
  readonly #dispatch = (msg: Message, extras: RequestExtras | undefined): Reply => this.#message(msg, extras);
  /** One 2026-07-28 request's own session ({@link Session.stateless}): no handshake. */
  #stateless = false;
  /** Messages whose claim was judged already ({@link refusal}): not judged again. */
  readonly #judged = new WeakSet<Message>();

  /**
   * The session of one 2026-07-28 request (MCP 2026-07-28 basic/versioning: stateless). `initialize` was removed
   * from that revision: here it is an unknown method (-32601), never a handshake.
   * @param registry - the server.
   * @param notify - where the request's notifications go.
   * @returns the session.
   */
  static stateless(registry: Registry, notify: Notify): Session {
    const s = new Session(registry, notify);
    s.#stateless = true;
    return s;
  }

  /**
   * The pipeline's verdict on a request's version claim (MCP 2026-07-28 basic/versioning), for a transport that
   * answers a refused claim itself (HTTP: 400 before dispatch). A claim judged here is not judged again.
   * @param msg - a request carrying `params._meta["io.modelcontextprotocol/protocolVersion"]`.
   * @returns the error to answer (-32602 malformed, -32022 unsupported), or undefined when the claim stands.
   */
  refusal(msg: Message): RpcError | undefined {
    const claim = checkClaim(metaOf(msg.params) ?? {});
    if (claim instanceof RpcError) return claim;
    this.#judged.add(msg);
    return undefined;
  }

  /**
   * @param registry - the server's tools and identity.
   * @param notify - where lines tied to a request go (progress, requests to the client).
   * @param table - the methods (default: the core's and every registered capability's, src/server/register.ts).
   */
  constructor(
    readonly registry: Registry,
    readonly notify: Notify,
    readonly table: MethodTable = currentTable(),
  ) {
    this.outbound = new Outbound(notify);
  }

  /** Sends a line to the client (Connection). */
  send(line: string, relatedId: RequestId | undefined, replaceable?: boolean): void {
    this.notify(line, relatedId, replaceable);
  }

  /** Requests in flight (running asynchronously). */
  get inFlight(): number {
    return this.calls.size;
  }

  /** Resolves when fewer than `limit` requests are in flight. */
  belowLimit(limit: number): Promise<void> | undefined {
    return this.calls.belowLimit(limit);
  }

  /** Resolves once no request is in flight. */
  idle(): Promise<void> {
    return this.calls.idle();
  }

  /**
   * Aborts every request in flight (each gets an answer: a tool call an isError result) and every
   * request to the client (they reject with "closed").
   * @param reason - the text sent in each answer.
   */
  abortAll(reason: string): void {
    this.calls.abortAll(reason);
    this.outbound.close(reason);
    closedRegistered(this);
  }

  /**
   * Ends one request in flight from the transport, as a client's `notifications/cancelled` would:
   * its signal aborts and it gets no response from the pipeline (MCP basic/utilities/cancellation).
   * @param id - the request's id (unknown ids are ignored).
   * @param reason - why, for the tool's `ctx.signal.reason`.
   * @param why - `cancelled` (the HTTP connection closed) or `timeout` (the transport's time limit), for the span.
   */
  cancel(id: RequestId, reason: string, why: "cancelled" | "timeout"): void {
    this.calls.cancel(id, reason, why);
  }

  /**
   * The target a registration names for a message's tracing span (e.g. the tool of a `tools/call`), or undefined.
   * @param method - the message's method.
   * @param params - its params, unchecked.
   */
  spanTarget(method: string, params: unknown): string | undefined {
    return spanTargetRegistered(method, params, this.registry);
  }

  /**
   * Handles one line of input (MCP basic/transports/stdio; JSON-RPC 2.0 and MCP 2026-07-28 basic "Messages"): JSON parse (-32700), batch (2025-03-26 sessions
   * only, else -32600), envelope (-32600), then {@link handleMessage}.
   * @param text - one line, CR and BOM already stripped.
   * @param extras - what the transport knows of the request (HTTP headers, session, token), for each message.
   */
  handleLine(text: string, extras?: RequestExtras): Reply {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return errorLine(null, new RpcError(ErrorCode.ParseError, "Parse error: the line is not valid JSON"));
    }
    return this.handleParsed(value, extras);
  }

  /**
   * Handles one parsed JSON text: a batch (2025-03-26 sessions only, else -32600) or one value ({@link handleValue}).
   * A transport that parsed the body already hands it here, so no body is parsed twice.
   */
  handleParsed(value: unknown, extras?: RequestExtras): Reply {
    return Array.isArray(value) ? this.#batch(value, extras) : this.handleValue(value, extras);
  }

  /** Handles one parsed JSON value (not an array); a response of the client's goes to {@link outbound}. */
  handleValue(value: unknown, extras?: RequestExtras): Reply {
    const env = checkEnvelope(value);
    if (env.kind === "message") return this.handleMessage(env.message, extras);
    if (env.kind === "invalid") return errorLine(env.id, env.error);
    this.outbound.deliver(env.response);
    return undefined;
  }

  #batch(values: unknown[], extras: RequestExtras | undefined): Reply {
    if (this.version !== "2025-03-26") {
      return errorLine(
        null,
        new RpcError(
          ErrorCode.InvalidRequest,
          "Invalid Request: JSON-RPC batches are only accepted on a session negotiated at 2025-03-26",
        ),
      );
    }
    if (values.length === 0)
      return errorLine(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: empty batch"));
    const replies = values.map((v) => {
      if (typeof v === "object" && v !== null && (v as { method?: unknown }).method === "initialize") {
        const id = (v as { id?: unknown }).id;
        return errorLine(
          typeof id === "string" || typeof id === "number" ? id : null,
          new RpcError(ErrorCode.InvalidRequest, "Invalid Request: initialize must not be batched"),
        );
      }
      return Array.isArray(v)
        ? errorLine(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: nested batch"))
        : this.handleValue(v, extras);
    });
    return Promise.all(replies).then((lines) => {
      const present = lines.filter((l): l is string => typeof l === "string");
      return present.length === 0 ? undefined : `[${present.join(",")}]`;
    });
  }

  /**
   * Dispatches one valid message (MCP 2026-07-28 basic/versioning "Backward Compatibility with Initialization-Based Versions"). With tracing on, inside its MCP server span:
   * the tracing wrapper runs this pipeline's next stage (src/telemetry).
   * @param msg - a message that passed envelope validation.
   * @param extras - what the transport knows of the request (HTTP headers, session, token).
   */
  handleMessage(msg: Message, extras?: RequestExtras): Reply {
    if (tracing.on) return tracing.message(msg, this.#dispatch, extras, this);
    return this.#message(msg, extras);
  }

  /** Era and version → context → invoke (look-up, params, handler) → projection. */
  #message(msg: Message, extras: RequestExtras | undefined): Reply {
    const { id, method, params } = msg;
    if (id === undefined) {
      this.table.notifications.get(method)?.handle(paramsObject(params), this, this.calls);
      return undefined;
    }
    let ctx: RequestContext;
    try {
      if (this.#stateless && method === "initialize")
        throw new RpcError(
          ErrorCode.MethodNotFound,
          `Method not found: initialize (protocol version ${MODERN_VERSION})`,
        );
      if (this.calls.has(id)) {
        throw new RpcError(
          ErrorCode.InvalidRequest,
          `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`,
        );
      }
      const meta = metaOf(params);
      if (eraOf(method, meta) === "modern") {
        const claim = this.#judged.has(msg) ? undefined : checkClaim(meta!);
        if (claim instanceof RpcError) throw claim;
        const level = meta![META.logLevel];
        if (level !== undefined && !isLogLevel(level)) {
          throw new RpcError(
            ErrorCode.InvalidParams,
            `Invalid params: _meta["${META.logLevel}"] must be one of ${LOG_LEVELS.join(", ")}; got ${JSON.stringify(level)}`,
          );
        }
        ctx = new RequestContext(this, id, method, "modern", MODERN, meta, extras);
      } else {
        const version = this.version;
        if (version === undefined && this.table.methods.get(method)?.beforeInitialize !== true) {
          throw new RpcError(
            ErrorCode.InvalidRequest,
            `Server not initialized: send "initialize" first, or use protocol version ${MODERN_VERSION} with params._meta["${META.protocolVersion}"]`,
          );
        }
        ctx = new RequestContext(
          this,
          id,
          method,
          "legacy",
          version === undefined ? UNNEGOTIATED : FEATURES.get(version)!,
          meta,
          extras,
        );
      }
      // Middleware wraps every request but the handshake (`initialize` is answered at once, over HTTP too).
      const chain = this.registry.middleware;
      const result =
        chain === undefined || method === "initialize" ? invoke(method, params, ctx) : chain(method, params, ctx);
      if (
        typeof result === "object" &&
        result !== null &&
        typeof (result as PromiseLike<unknown>).then === "function"
      ) {
        return this.calls.track(ctx, result as PromiseLike<unknown>);
      }
      ctx.done = true;
      return lineOf(ctx.spec!, ctx, result);
    } catch (e) {
      if (e instanceof RpcError) return errorLine(id, e);
      logLine(`internal error handling ${method}: ${(e as Error)?.stack ?? e}`);
      return errorLine(id, new RpcError(ErrorCode.InternalError, "Internal error"));
    }
  }
}
