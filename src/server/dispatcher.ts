/** @module The dispatcher: one line or message in, its response line out, for both eras; no I/O. */
import { checkEnvelope, errorLine, ErrorCode, notificationLine, resultLine, RpcError, type Message, type RequestId } from "../protocol/jsonrpc.ts";
import { FEATURES, MODERN_VERSION, negotiateLegacy, SUPPORTED_VERSIONS, type VersionFeatures } from "../protocol/versions.ts";
import { plainTextLine, projectResult, type CallResult } from "../protocol/project.ts";
import { ajvLoaded, loadAjv, outputOf, parseArguments, usesJsonSchemaValidation, type Tool, type ToolContext } from "../tool.ts";
import { CACHE_HINTS, type Registry } from "./registry.ts";
import { errorResult, invalidArgumentsText, shapeResult, thrownText } from "./call.ts";
import { tracing } from "../telemetry/state.ts";

/** A response line, a promise of one (undefined: nothing to send), or nothing. */
export type Reply = string | Promise<string | undefined> | undefined;

/**
 * Sends a notification line tied to an in-flight request (progress). `requestId` names that request,
 * so a transport with one stream per request (HTTP) can route the line to it; stdio ignores it.
 */
export type Notify = (line: string, requestId: RequestId) => void;

const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_CAPS = "io.modelcontextprotocol/clientCapabilities";

/** One call running asynchronously; created only when `run` returned a promise (or for progress). */
interface InFlight {
  controller?: AbortController;
  cancelled: boolean;
  done: boolean;
  settle?: (line: string | undefined) => void;
  /** The timeout timer, cleared when the call finishes however it ends. */
  timer?: ReturnType<typeof setTimeout>;
  /** The last progress value sent (notifications must increase). */
  lastProgress?: number;
  /** The version features the call's result is projected with. */
  f?: VersionFeatures;
}

/** What `run` receives: one allocation per call (methods live on the prototype), the signal made on first use. */
class CallContext implements ToolContext {
  readonly requestId: RequestId;
  readonly protocolVersion: string;
  readonly #call: InFlight;
  readonly #f: VersionFeatures;
  readonly #token: string | number | undefined;
  readonly #notify: Notify;

  constructor(id: RequestId, call: InFlight, f: VersionFeatures, token: string | number | undefined, notify: Notify) {
    this.requestId = id;
    this.protocolVersion = f.version;
    this.#call = call;
    this.#f = f;
    this.#token = token;
    this.#notify = notify;
  }

  get signal(): AbortSignal {
    return (this.#call.controller ??= new AbortController()).signal;
  }

  progress(progress: number, total?: number, message?: string): void {
    const call = this.#call;
    const token = this.#token;
    // Only with a token, only while the call runs, only finite and increasing values (basic/utilities/progress).
    if (token === undefined || call.done || typeof progress !== "number" || !Number.isFinite(progress)) return;
    if (call.lastProgress !== undefined && progress <= call.lastProgress) return;
    call.lastProgress = progress;
    const p: Record<string, unknown> = { progressToken: token, progress };
    if (typeof total === "number" && Number.isFinite(total)) p.total = total;
    if (typeof message === "string" && this.#f.progressMessage) p.message = message;
    this.#notify(notificationLine("notifications/progress", p), this.requestId);
  }
}

/**
 * The state of one connection (stdio: the process; HTTP: one legacy session or one stateless
 * request) and the dispatcher over it. Messages are dispatched in arrival order; only tool
 * execution runs concurrently.
 */
export class Session {
  /** The legacy version negotiated by `initialize`, once it has been. */
  version: string | undefined;
  readonly #inflight = new Map<RequestId, InFlight>();
  #idleWaiters: (() => void)[] = [];

  /**
   * @param registry - the server's tools and identity.
   * @param notify - where progress notifications go.
   */
  constructor(
    readonly registry: Registry,
    readonly notify: Notify,
  ) {}

  /** Calls in flight (running asynchronously). */
  get inFlight(): number {
    return this.#inflight.size;
  }

  /** Resolves when fewer than `limit` calls are in flight. */
  belowLimit(limit: number): Promise<void> | undefined {
    if (this.#inflight.size < limit) return undefined;
    return new Promise((resolve) => {
      const check = () => (this.#inflight.size < limit ? resolve() : this.#idleWaiters.push(check));
      this.#idleWaiters.push(check);
    });
  }

  /**
   * Handles one line of input (PROTOCOL.md §1-2): JSON parse (-32700), batch (2025-03-26 sessions
   * only, else -32600), envelope (-32600), then {@link handleMessage}.
   * @param text - one line, CR and BOM already stripped.
   */
  handleLine(text: string): Reply {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return errorLine(null, new RpcError(ErrorCode.ParseError, "Parse error: the line is not valid JSON"));
    }
    if (Array.isArray(value)) return this.#batch(value);
    return this.handleValue(value);
  }

  /** Handles one parsed JSON value (not an array). */
  handleValue(value: unknown): Reply {
    const env = checkEnvelope(value);
    if (env.kind === "response") return undefined;
    if (env.kind === "invalid") return errorLine(env.id, env.error);
    return this.handleMessage(env.message);
  }

  #batch(values: unknown[]): Reply {
    if (this.version !== "2025-03-26") {
      return errorLine(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are only accepted on a session negotiated at 2025-03-26"));
    }
    if (values.length === 0) return errorLine(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: empty batch"));
    const replies = values.map((v) => {
      if (typeof v === "object" && v !== null && (v as { method?: unknown }).method === "initialize") {
        const id = (v as { id?: unknown }).id;
        return errorLine(typeof id === "string" || typeof id === "number" ? id : null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: initialize must not be batched"));
      }
      return Array.isArray(v) ? errorLine(null, new RpcError(ErrorCode.InvalidRequest, "Invalid Request: nested batch")) : this.handleValue(v);
    });
    return Promise.all(replies).then((lines) => {
      const present = lines.filter((l): l is string => typeof l === "string");
      return present.length === 0 ? undefined : `[${present.join(",")}]`;
    });
  }

  /**
   * Dispatches one valid message by era (PROTOCOL.md §4.6): `initialize` → legacy negotiation;
   * a `_meta` protocol-version claim → stateless 2026-07-28; else the negotiated legacy version.
   * With tracing on, the message is handled inside its MCP server span (src/telemetry).
   * @param msg - a message that passed envelope validation.
   * @param traced - set by the tracing hook when the span is already open.
   */
  handleMessage(msg: Message, traced?: true): Reply {
    if (tracing.on && traced === undefined) return tracing.message(this, msg);
    const { id, method } = msg;
    const params = msg.params as Record<string, unknown> | null | undefined;
    const meta = params && typeof params === "object" && !Array.isArray(params) ? (params._meta as Record<string, unknown> | undefined) : undefined;
    if (id === undefined) {
      this.#notification(method, params);
      return undefined;
    }
    try {
      if (this.#inflight.size !== 0 && this.#inflight.has(id)) {
        throw new RpcError(ErrorCode.InvalidRequest, `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`);
      }
      if (method === "initialize") return this.#initialize(id, params);
      if (meta && typeof meta === "object" && META_VERSION in meta) return this.#modern(id, method, params!, meta);
      if (method === "ping") return resultLine(id, {});
      const version = this.version;
      if (version === undefined) {
        throw new RpcError(ErrorCode.InvalidRequest, `Server not initialized: send "initialize" first, or use protocol version ${MODERN_VERSION} with params._meta["${META_VERSION}"]`);
      }
      const f = FEATURES.get(version)!;
      if (method === "tools/list") return this.#toolsList(id, params, f);
      if (method === "tools/call") return this.#toolsCall(id, params, f);
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    } catch (e) {
      if (e instanceof RpcError) return errorLine(id, e);
      process.stderr.write(`mcpbin: internal error handling ${method}: ${(e as Error)?.stack ?? e}\n`);
      return errorLine(id, new RpcError(ErrorCode.InternalError, "Internal error"));
    }
  }

  #notification(method: string, params: Record<string, unknown> | null | undefined): void {
    if (method !== "notifications/cancelled" || !params || typeof params !== "object") return;
    const call = this.#inflight.get(params.requestId as RequestId);
    if (!call || call.done) return;
    call.cancelled = true;
    call.controller?.abort(new Error(typeof params.reason === "string" ? `cancelled: ${params.reason}` : "cancelled by the client"));
    this.#finish(params.requestId as RequestId, call, undefined);
  }

  #initialize(id: RequestId, params: Record<string, unknown> | null | undefined): string {
    if (this.version !== undefined) {
      throw new RpcError(ErrorCode.InvalidRequest, `Invalid Request: the session is already initialized at ${this.version}; start a new process to renegotiate`);
    }
    if (!params || typeof params !== "object" || Array.isArray(params)) throw new RpcError(ErrorCode.InvalidParams, "Invalid params: initialize needs params {protocolVersion, capabilities, clientInfo}");
    const version = negotiateLegacy(params.protocolVersion);
    const f = FEATURES.get(version)!;
    this.version = version;
    const o = this.registry.options;
    const result: Record<string, unknown> = { protocolVersion: version, capabilities: { tools: {} }, serverInfo: this.registry.serverInfo(f) };
    if (o.instructions !== undefined && f.instructions) result.instructions = o.instructions;
    return resultLine(id, result);
  }

  #modern(id: RequestId, method: string, params: Record<string, unknown>, meta: Record<string, unknown>): Reply {
    const requested = meta[META_VERSION];
    if (typeof requested !== "string") throw new RpcError(ErrorCode.InvalidParams, `Invalid params: _meta["${META_VERSION}"] must be a string`);
    const caps = meta[META_CAPS];
    if (typeof caps !== "object" || caps === null || Array.isArray(caps)) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: _meta["${META_CAPS}"] is required (an object; {} for none)`);
    }
    if (requested !== MODERN_VERSION) {
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", { supported: SUPPORTED_VERSIONS, requested });
    }
    const f = FEATURES.get(MODERN_VERSION)!;
    if (method === "tools/call") return this.#toolsCall(id, params, f);
    if (method === "tools/list") return this.#toolsList(id, params, f);
    if (method === "server/discover") {
      const o = this.registry.options;
      const result: Record<string, unknown> = { resultType: "complete", supportedVersions: SUPPORTED_VERSIONS, capabilities: { tools: {} } };
      if (o.instructions !== undefined) result.instructions = o.instructions;
      return resultLine(id, { ...result, ...CACHE_HINTS, _meta: this.registry.modernMeta });
    }
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} (protocol version ${MODERN_VERSION})`);
  }

  #toolsList(id: RequestId, params: Record<string, unknown> | null | undefined, f: VersionFeatures): string {
    const cursor = params && typeof params === "object" ? params.cursor : undefined;
    if (cursor !== undefined && cursor !== "" && cursor !== null) throw new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown cursor");
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${this.registry.toolsListJson(f)}}`;
  }

  #toolsCall(id: RequestId, params: Record<string, unknown> | null | undefined, f: VersionFeatures): Reply {
    if (!params || typeof params !== "object" || Array.isArray(params)) throw new RpcError(ErrorCode.InvalidParams, "Invalid params: tools/call needs params {name, arguments}");
    const name = params.name;
    if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "name" must be a string');
    const t = this.registry.tools.get(name);
    if (!t) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    let args = params.arguments;
    if (args === undefined || args === null) args = {};
    else if (typeof args !== "object" || Array.isArray(args)) throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: "arguments" must be an object');

    // A tool with a raw JSON Schema validates with Ajv, which loads asynchronously (started by tool()).
    if (usesJsonSchemaValidation(t) && !ajvLoaded()) {
      return loadAjv().then(
        () => this.#toolsCall(id, params, f),
        (e: unknown) => this.#respond(id, errorResult(`Tool ${name} cannot check its arguments: loading the JSON Schema validator failed: ${(e as Error)?.message ?? e}`), f),
      );
    }

    let parsed: ReturnType<typeof parseArguments>;
    try {
      parsed = parseArguments(t, args);
      // A schema given as a function is built on first use: an output schema too, before the tool runs.
      if (typeof t.definition.output === "function") outputOf(t);
    } catch (e) {
      // Only a schema function can throw here (ToolDefinitionError), e.g. one that depends on the environment.
      return this.#respond(id, errorResult(`Tool ${name} cannot run: ${(e as Error)?.message ?? e}`), f);
    }
    if (!parsed.ok) {
      if (tracing.on) tracing.invalidArguments();
      return this.#respond(id, errorResult(invalidArgumentsText(t, parsed.issues)), f);
    }

    const call: InFlight = { cancelled: false, done: false };
    const meta = params._meta as Record<string, unknown> | undefined;
    const token = meta && typeof meta === "object" ? meta.progressToken : undefined;
    const ctx = this.#context(id, call, f, typeof token === "string" || Number.isSafeInteger(token) ? (token as string | number) : undefined);
    let value: unknown;
    try {
      value = t.definition.run(parsed.value as never, ctx);
    } catch (e) {
      return this.#respond(id, this.#thrown(t, e), f);
    }
    if (!(value instanceof Promise) && !(typeof value === "object" && value !== null && typeof (value as PromiseLike<unknown>).then === "function")) {
      call.done = true;
      return this.#respond(id, this.#shape(t, value), f);
    }
    return this.#await(id, t, call, value as PromiseLike<unknown>, f);
  }

  #await(id: RequestId, t: Tool, call: InFlight, pending: PromiseLike<unknown>, f: VersionFeatures): Promise<string | undefined> {
    this.#inflight.set(id, call);
    call.f = f;
    const limit = t.definition.timeoutMs ?? this.registry.options.timeoutMs;
    return new Promise<string | undefined>((resolve) => {
      call.settle = resolve;
      if (limit > 0) {
        call.timer = setTimeout(() => {
          if (call.done) return;
          (call.controller ??= new AbortController()).abort(new Error(`timed out after ${limit} ms`));
          this.#finish(id, call, this.#respond(id, errorResult(`Tool ${t.name} timed out after ${limit} ms`), f));
        }, limit);
      }
      pending.then(
        (value) => {
          if (!call.done) this.#finish(id, call, this.#respond(id, this.#shape(t, value), f));
        },
        (e) => {
          if (!call.done) this.#finish(id, call, this.#respond(id, this.#thrown(t, e), f));
        },
      );
    });
  }

  #finish(id: RequestId, call: InFlight, line: string | undefined): void {
    call.done = true;
    if (call.timer !== undefined) clearTimeout(call.timer);
    this.#inflight.delete(id);
    call.settle?.(line);
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Aborts every call still in flight; each gets an isError result (nothing is lost).
   * @param reason - the text sent in each result.
   */
  abortAll(reason: string): void {
    for (const [id, call] of [...this.#inflight]) {
      call.controller?.abort(new Error(reason));
      this.#finish(id, call, this.#respond(id, errorResult(reason), call.f ?? FEATURES.get(this.version ?? MODERN_VERSION)!));
    }
  }

  /** Resolves once no call is in flight. */
  idle(): Promise<void> {
    if (this.#inflight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (this.#inflight.size === 0 ? resolve() : this.#idleWaiters.push(check));
      this.#idleWaiters.push(check);
    });
  }

  #context(id: RequestId, call: InFlight, f: VersionFeatures, token: string | number | undefined): ToolContext {
    return new CallContext(id, call, f, token, this.notify);
  }


  #shape(t: Tool, value: unknown): CallResult {
    try {
      return shapeResult(t, value, this.registry.options.json);
    } catch (e) {
      return this.#thrown(t, e);
    }
  }

  #thrown(t: Tool, e: unknown): CallResult {
    let detail: string;
    try {
      detail = String((e as Error)?.stack ?? e);
    } catch {
      detail = "(a value that cannot be printed)";
    }
    process.stderr.write(`mcpbin: tool ${t.name} threw: ${detail}\n`);
    return errorResult(thrownText(t, e));
  }

  #respond(id: RequestId, r: CallResult, f: VersionFeatures): string {
    if (tracing.on) tracing.toolResult(r);
    const line = plainTextLine(id, r, f, this.registry.modernMetaJson) ?? resultLine(id, this.#project(r, f));
    const max = this.registry.options.maxResultBytes;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter lines need no byte count.
    if (line.length > max / 3 && Buffer.byteLength(line) > max) {
      return resultLine(id, this.#project(errorResult(`The result of this call is ${Buffer.byteLength(line)} bytes, over the server's limit of ${max} bytes (maxResultBytes)`), f));
    }
    return line;
  }

  #project(r: CallResult, f: VersionFeatures): Record<string, unknown> {
    const result = projectResult(r, f);
    if (f.modern) {
      result.resultType = "complete";
      result._meta = result._meta ? { ...this.registry.modernMeta, ...(result._meta as object) } : this.registry.modernMeta;
    }
    return result;
  }
}
