/** @module The client's connection core: the transport, the handshake, requests in either era, and the messages the server sends (McpClient adds the methods of the protocol). */
import { checkEnvelope, ErrorCode, type RequestId } from "../protocol/jsonrpc.ts";
import { NEWEST_LEGACY_VERSION } from "../protocol/versions.ts";
import { Outbound, OutboundError, type OutboundOptions } from "../server/outbound.ts";
import type { ClientTransport } from "./transport.ts";
import { logName } from "../runtime/log-name.ts";
import { AskRoutes } from "./ask-routes.ts";
import { requestIdOfLine, responseIdOfHead, wrapError } from "./client-errors.ts";
import type { CallOptions, ClientOptions, Implementation, JsonObject, RequestOptions } from "./client-types.ts";
import { handshake, modernParams } from "./handshake.ts";
import { rounds } from "./rounds.ts";
import { answerServerRequest } from "./server-requests.ts";
import { withVersionRetry } from "./version-retry.ts";
import { completingDefaults } from "./elicit-defaults.ts";

/**
 * One connection to one MCP server, without the protocol's methods: {@link import("./client.ts").McpClient}
 * adds them. A stateful owner of the transport, the pending requests ({@link Outbound}) and the routes of the
 * server's requests.
 */
export class ClientConnection {
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

  /** The options the connection was made with. */
  protected readonly opts: ClientOptions;
  /** Progress callbacks of the calls in flight, by progress token. */
  protected readonly progress = new Map<string, NonNullable<CallOptions["onProgress"]>>();
  readonly #transport: ClientTransport;
  readonly #outbound: Outbound;
  readonly #serving = new Map<RequestId, AbortController>();
  /** The requests in flight that answer the server's requests or take its log messages. */
  readonly #routes = new AskRoutes();
  /** Writes not yet settled: when the connection ends, their requests learn first whether they were sent. */
  readonly #writing = new Set<Promise<void>>();
  #ended = false;
  #resolveClosed!: (e: Error | undefined) => void;

  /** @internal use {@link import("./connect.ts").connect}. */
  constructor(transport: ClientTransport, opts: ClientOptions) {
    this.#transport = transport;
    this.opts = opts;
    this.closed = new Promise((r) => (this.#resolveClosed = r));
    this.#outbound = new Outbound((line) => {
      const w = this.#transport.send(line).catch((e: unknown) => this.#sendFailed(line, e));
      this.#writing.add(w);
      void w.finally(() => this.#writing.delete(w));
    });
  }

  /** The transport's label: the server's configured name or its URL. */
  get label(): string {
    return this.#transport.label;
  }

  /** @internal starts the transport and runs the handshake (src/client/handshake.ts). */
  async open(): Promise<void> {
    await this.#transport.start({
      line: (text, relatedId) => this.#receive(text, relatedId),
      closed: (e) => this.#end(e),
      oversize: (head, limit) => this.#oversize(head, limit),
    });
    await handshake({
      label: this.label,
      opts: this.opts,
      transport: this.#transport,
      send: (method, params, timeoutMs) => this.#send(method, params, { timeoutMs }),
      apply: (facts) => Object.assign(this, facts),
    });
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
        ? modernParams(params, this.opts, opts.capabilities)
        : Object.keys(params).length === 0 && method === "ping"
          ? undefined
          : params;
    const route = this.#routes.open(opts, params);
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs ?? 60_000;
    try {
      const r = (await this.#send(method, p, {
        signal: opts.signal,
        timeoutMs,
        onId: route.onId,
      })) as JsonObject;
      const answer = opts.onRequest ?? this.opts.onRequest;
      if (r?.resultType !== "input_required" || !answer || this.era !== "modern") return r;
      const send = async (m: string, next: JsonObject, o: RequestOptions) =>
        (await this.#send(m, modernParams(next, this.opts, o.capabilities), {
          signal: o.signal,
          timeoutMs,
        })) as JsonObject;
      const complete = this.opts.elicitationDefaults !== false ? completingDefaults(answer) : answer;
      return await rounds({ label: this.label, send }, method, params, r, complete, opts);
    } catch (e) {
      throw wrapError(this.label, method, e, timeoutMs);
    } finally {
      this.#routes.close(route.key);
    }
  }

  /** One request through the connection's Outbound, sent once more on a -32022 that names 2026-07-28 (src/client/version-retry.ts). */
  #send(method: string, params: JsonObject | undefined, opts: OutboundOptions): Promise<unknown> {
    return withVersionRetry((p) => this.#outbound.request(method, p, opts), params);
  }

  /** Ends the connection: pending requests reject ("closed"), the transport closes (the child process ends). Idempotent. */
  async close(): Promise<void> {
    this.#end(undefined);
    await this.#transport.close();
  }

  /**
   * A notification the server sent, after the connection's own handling of it (progress, log messages,
   * cancellation): given to the connection's `onNotification` (McpClient adds its listeners).
   */
  protected heard(method: string, params: JsonObject | undefined): void {
    this.opts.onNotification?.(method, params);
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
    this.progress.clear();
    this.#resolveClosed(error);
  }

  /**
   * A send that failed (the process is gone, HTTP refused): its request fails now instead of waiting for its
   * time limit, as "closed" and marked unsent (the server never got it, so a retry cannot repeat an effect).
   */
  #sendFailed(line: string, e: unknown): void {
    const id = requestIdOfLine(line);
    if (id === undefined) return;
    const why = `${this.label}: the request could not be sent: ${(e as Error)?.message ?? String(e)}`;
    this.#outbound.fail(id, new OutboundError("closed", why, undefined, true));
  }

  /**
   * A message the transport dropped as too large, known by its first bytes: when it answers a request of
   * ours, that request fails now (with the limit) instead of waiting for its time limit.
   */
  #oversize(head: string, limit: number): void {
    const id = responseIdOfHead(head);
    if (id === undefined) return;
    const message = `the server's answer was over ${limit} bytes and was dropped unread`;
    this.#outbound.deliver({ jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message } } as never);
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
        else {
          const link = {
            label: this.label,
            routes: this.#routes,
            onRequest: this.opts.onRequest,
            serving: this.#serving,
            elicitationDefaults: this.opts.elicitationDefaults !== false,
            send: (line: string) => this.#transport.send(line),
          };
          void answerServerRequest(link, id, method, params, relatedId);
        }
      }
    }
  }

  #notification(method: string, params: JsonObject | undefined, relatedId?: RequestId): void {
    if (method === "notifications/progress" && params) {
      const cb = this.progress.get(params.progressToken as string);
      if (cb && typeof params.progress === "number") {
        const p: { progress: number; total?: number; message?: string } = { progress: params.progress };
        if (typeof params.total === "number") p.total = params.total;
        if (typeof params.message === "string") p.message = params.message;
        cb(p);
      }
    } else if (method === "notifications/message" && params) {
      const { found, candidates, mixed } = this.#routes.routeOf("onLog", params, relatedId, false);
      (found ?? (!mixed && AskRoutes.shared(candidates) ? candidates[0] : undefined))?.onLog!(params);
    } else if (method === "notifications/cancelled" && params) {
      this.#serving.get(params.requestId as RequestId)?.abort();
    }
    this.heard(method, params);
  }
}
