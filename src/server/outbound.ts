/** @module Requests from this side to the peer (server → client): ids, the pending map, response matching, timeout, cancellation both ways. */
import { notificationLine, requestLine, type RequestId, type ResponseMessage } from "../protocol/jsonrpc.ts";

/** Why an outbound request did not get a result. */
export type OutboundErrorCode =
  /** The peer answered with a JSON-RPC error (see `rpc`). */
  | "rpc"
  /** No answer within the time limit; `notifications/cancelled` was sent. */
  | "timeout"
  /** The caller's signal aborted (e.g. the request it serves was cancelled); `notifications/cancelled` was sent. */
  | "cancelled"
  /** The connection closed (or is closing) before the answer came. */
  | "closed"
  /** This connection cannot carry server → client requests (2026-07-28 stateless requests, or too many pending). */
  | "unavailable";

/** A local error of an outbound request: never sent on the wire; `code` says what happened. */
export class OutboundError extends Error {
  /**
   * @param code - what happened.
   * @param message - one sentence.
   * @param rpc - the peer's JSON-RPC error, when `code` is "rpc".
   * @param unsent - true when the request never left (the write failed): the peer cannot have acted on it.
   */
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly rpc?: { readonly code: number; readonly message: string; readonly data?: unknown },
    readonly unsent = false,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

/** Options of one outbound request. */
export interface OutboundOptions {
  /** Aborting it cancels the request: `notifications/cancelled` goes to the peer, the promise rejects ("cancelled"). */
  readonly signal?: AbortSignal;
  /** Time limit in ms (default {@link DEFAULT_OUTBOUND_TIMEOUT_MS}; at most 2147483647; 0 = none). */
  readonly timeoutMs?: number;
  /** The incoming request this one serves: transports with one stream per request (HTTP) send the line on its stream. */
  readonly relatedId?: RequestId;
  /** Told the id this request is sent with, before it is sent (the client uses it to tie the server's requests to it). */
  readonly onId?: (id: string) => void;
}

/** Default time limit of an outbound request, ms. */
export const DEFAULT_OUTBOUND_TIMEOUT_MS = 60_000;
/** Outbound requests pending at most per connection; more reject with "unavailable" (memory stays bounded). */
export const MAX_PENDING_OUTBOUND = 1024;
/** Every id this side allocates starts so: a string, so it never equals a peer's integer id, and recognisable in logs. */
export const OUTBOUND_ID_PREFIX = "mcpbin-";

/** Writes one line to the peer; `relatedId` names the incoming request it belongs to (or undefined). */
export type SendLine = (line: string, relatedId: RequestId | undefined) => void;

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (e: OutboundError) => void;
  readonly relatedId: RequestId | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * The outbound half of one connection (MCP basic: requests go both ways; basic/utilities/cancellation).
 * Ids are `mcpbin-<n>` strings, unique for the connection's life. A response is matched by id; one
 * that matches nothing pending (late, unknown, duplicate) is dropped. The client of src/client uses
 * the same class for its requests to a server.
 */
export class Outbound {
  readonly #pending = new Map<string, Pending>();
  #next = 1;
  #closed: string | undefined;

  /**
   * @param send - how a line reaches the peer (the one writer on stdio, the request's stream on HTTP).
   */
  constructor(readonly send: SendLine) {}

  /** Requests waiting for their answer. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Sends a request and waits for its answer.
   * @param method - the method, e.g. `ping`, `roots/list`.
   * @param params - its params (an object), or undefined for none.
   * @param options - signal, time limit and the related incoming request.
   * @returns the peer's `result`.
   * @throws OutboundError (as a rejection): "rpc" with the peer's error, "timeout", "cancelled", "closed", "unavailable".
   */
  request(method: string, params?: Record<string, unknown>, options: OutboundOptions = {}): Promise<unknown> {
    if (this.#closed !== undefined) return Promise.reject(new OutboundError("closed", `${method}: ${this.#closed}`));
    if (this.#pending.size >= MAX_PENDING_OUTBOUND)
      return Promise.reject(
        new OutboundError(
          "unavailable",
          `${method}: ${MAX_PENDING_OUTBOUND} requests to the client are already pending`,
        ),
      );
    const signal = options.signal;
    if (signal?.aborted)
      return Promise.reject(new OutboundError("cancelled", `${method}: cancelled before it was sent`));
    const id = `${OUTBOUND_ID_PREFIX}${this.#next++}`;
    const limit = options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
    return new Promise<unknown>((resolve, reject) => {
      const p: Pending = {
        method,
        resolve,
        reject,
        relatedId: options.relatedId,
        timer: undefined,
        signal,
        onAbort: undefined,
      };
      this.#pending.set(id, p);
      if (limit > 0)
        p.timer = setTimeout(
          () => this.#cancel(id, "timeout", `${method}: no answer from the client within ${limit} ms`),
          Math.min(limit, 2_147_483_647),
        );
      if (signal) {
        p.onAbort = () => this.#cancel(id, "cancelled", `${method}: cancelled`);
        signal.addEventListener("abort", p.onAbort, { once: true });
      }
      options.onId?.(id);
      this.send(requestLine(id, method, params), options.relatedId);
    });
  }

  /**
   * Matches a response from the peer to a pending request and settles it.
   * @param response - a message that passed the envelope check as a response.
   * @returns true when it answered a pending request; false when it was dropped.
   */
  deliver(response: ResponseMessage): boolean {
    const id = response.id;
    if (typeof id !== "string") return false;
    const p = this.#pending.get(id);
    if (!p) return false;
    this.#settle(id, p);
    if ("error" in response && response.error !== undefined) {
      const e = response.error as { code?: unknown; message?: unknown; data?: unknown } | null;
      const code = typeof e?.code === "number" ? e.code : 0;
      const message = typeof e?.message === "string" ? e.message : "(no message)";
      p.reject(
        new OutboundError("rpc", `${p.method}: the client answered with error ${code}: ${message}`, {
          code,
          message,
          data: e?.data,
        }),
      );
    } else {
      p.resolve(response.result);
    }
    return true;
  }

  /**
   * Rejects one pending request with `error` (e.g. its line could not be written); nothing is sent.
   * @returns false when no such request is pending.
   */
  fail(id: RequestId, error: OutboundError): boolean {
    const p = typeof id === "string" ? this.#pending.get(id) : undefined;
    if (!p) return false;
    this.#settle(id as string, p);
    p.reject(error);
    return true;
  }

  /**
   * Rejects every pending request ("closed") and refuses new ones; nothing is sent.
   * @param reason - why, e.g. "the client went away".
   */
  close(reason: string): void {
    this.#closed = reason;
    for (const [id, p] of [...this.#pending]) {
      this.#settle(id, p);
      p.reject(new OutboundError("closed", `${p.method}: ${reason}`));
    }
  }

  /** Timeout or abort: tell the peer (basic/utilities/cancellation), then reject. */
  #cancel(id: string, code: "timeout" | "cancelled", message: string): void {
    const p = this.#pending.get(id);
    if (!p) return;
    this.#settle(id, p);
    this.send(
      notificationLine("notifications/cancelled", {
        requestId: id,
        reason: code === "timeout" ? "timeout" : "cancelled by the server",
      }),
      p.relatedId,
    );
    p.reject(new OutboundError(code, message));
  }

  #settle(id: string, p: Pending): void {
    this.#pending.delete(id);
    if (p.timer !== undefined) clearTimeout(p.timer);
    if (p.onAbort) p.signal!.removeEventListener("abort", p.onAbort);
  }
}
