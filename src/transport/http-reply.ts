/** @module HTTP answers for one JSON-RPC reply: application/json, or an SSE stream when progress comes first; status codes per era. */
import { wellFormedLine } from "../protocol/well-formed.ts";
import { ErrorCode, errorLine, RpcError, type Reply, type RequestId } from "../protocol/jsonrpc.ts";
import type { Sink } from "./http-sessions.ts";
import type { StreamRecorder } from "./stream-events.ts";
import type { UnreadAnswers } from "./http-unread.ts";

const JSON_TYPE = "application/json";
const SSE_TYPE = "text/event-stream";
const encoder = new TextEncoder();

/**
 * A JSON response.
 * @param body - one serialized JSON-RPC message.
 * @param status - the HTTP status.
 * @param headers - headers to send with it (CORS, Mcp-Session-Id); `content-type` is set here.
 * @param unread - where a large body's unread bytes are watched (write deadline, overall bound), and its name there.
 * @returns the response.
 */
export function jsonResponse(
  body: string,
  status: number,
  headers?: Headers,
  unread?: { readonly answers: UnreadAnswers; readonly what: string },
): Response {
  const h = headers ?? new Headers();
  h.set("content-type", JSON_TYPE);
  const text = wellFormedLine(body);
  return new Response(unread ? unread.answers.body(text, unread.what) : text, { status, headers: h });
}

/**
 * A JSON-RPC error answered at the HTTP level, before dispatch (MCP 2026-07-28 basic/transports/streamable-http "Server Validation").
 * @param status - the HTTP status (400, 404, 406, 408, 413, 415, 503).
 * @param id - the request id when it could be read, else null.
 * @param code - the JSON-RPC error code.
 * @param message - one sentence for the client.
 * @param headers - headers to send with it.
 * @param data - optional `error.data`.
 * @returns the response.
 */
export function rpcErrorResponse(
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
  headers?: Headers,
  data?: unknown,
): Response {
  return jsonResponse(errorLine(id, new RpcError(code, message, data)), status, headers);
}

/**
 * The JSON-RPC error code of a response line made by the dispatcher.
 * @param line - a response line from `resultLine`/`errorLine`.
 * @returns the code, or undefined for a result.
 */
export function errorCodeOf(line: string): number | undefined {
  // Dispatcher lines are `{"jsonrpc":"2.0","id":…,"error":{"code":N,…` or `…,"result":…`.
  const i = line.indexOf(',"error":{"code":');
  if (i === -1) return undefined;
  const r = line.indexOf(',"result":');
  if (r !== -1 && r < i) return undefined;
  return Number.parseInt(line.slice(i + 17), 10);
}

/**
 * HTTP status for a dispatcher reply (MCP 2026-07-28 basic/transports/streamable-http "Server Validation"). Parse and envelope errors are 400 in every
 * era. Modern: -32601 is 404 and -32020/-32021/-32022 are 400; other errors (an unknown tool's
 * -32602 included) stay in-band with 200, as the official SDK does. Legacy: in-band 200. A batch's
 * array of responses is 200.
 * @param line - the response line.
 * @param modern - whether the request was a 2026-07-28 one.
 * @returns the HTTP status.
 */
export function statusFor(line: string, modern: boolean): number {
  // A batch's answer is an array of responses: the batch itself was taken (JSON-RPC 2.0 §6), whatever
  // each element says; only a batch refused as a whole is one error object.
  if (line.startsWith("[")) return 200;
  const code = errorCodeOf(line);
  if (code === undefined) return 200;
  if (code === ErrorCode.ParseError || code === ErrorCode.InvalidRequest) return 400;
  if (!modern) return 200;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
  )
    return 400;
  return 200;
}

/**
 * @param req - the HTTP request.
 * @returns true when its Accept header admits `text/event-stream`.
 */
export function acceptsSse(req: Request): boolean {
  const a = req.headers.get("accept");
  return a !== null && (a.includes(SSE_TYPE) || a.includes("text/*"));
}

/**
 * @param req - the HTTP request.
 * @returns true when its Accept header admits JSON (a missing header admits anything).
 */
export function acceptsJson(req: Request): boolean {
  const a = req.headers.get("accept");
  return a === null || a === "" || a.includes(JSON_TYPE) || a.includes("application/*") || a.includes("*/*");
}

/** Bytes an SSE stream may hold for a client that is not reading before notifications are coalesced. */
const SSE_HIGH_WATER = 1 << 16;

function sseEvent(line: string, id?: string): Uint8Array {
  return encoder.encode(`${id === undefined ? "" : `id: ${id}\n`}event: message\ndata: ${wellFormedLine(line)}\n\n`);
}

/**
 * The notifications of one request (progress), buffered until the response knows whether it becomes
 * an SSE stream. It exists before the request is dispatched, so nothing a tool emits synchronously
 * is lost.
 */
export class Notes {
  #buffered: string[] = [];
  #target: Sink | undefined;
  #wake: (() => void) | undefined;
  /** Takes one notification line (the dispatcher's progress callback for this request). */
  readonly push: Sink = (line) => {
    if (this.#target) return this.#target(line);
    this.#buffered.push(line);
    this.#wake?.();
  };
  /** Resolves at the first notification (at once when one is buffered). */
  first(): Promise<"note"> {
    if (this.#buffered.length > 0) return Promise.resolve("note");
    return new Promise((r) => (this.#wake = () => r("note")));
  }
  /** Sends what is buffered, then everything after it, to `target`. */
  attach(target: Sink): void {
    for (const l of this.#buffered) target(l);
    this.#buffered = [];
    this.#target = target;
  }
  /** Drops everything from now on (no stream, or the request is done). */
  drop(): void {
    this.#buffered = [];
    this.#target = () => {};
  }
}

/** What {@link answer} needs from the transport for one request. */
export interface AnswerContext {
  readonly id: RequestId | null;
  readonly modern: boolean;
  readonly sse: boolean;
  readonly headers: Headers;
  /** The request's notifications. */
  readonly notes: Notes;
  /** Called once the last byte is queued (for logging and in-flight accounting). */
  done(status: number): void;
  /** The client cancelled the SSE stream: cancel the call. */
  abort(): void;
  /**
   * Line to send when a request settled with nothing (cancelled: timeout or disconnect). Absent when
   * the message needs no answer (a batch of notifications and responses): settling with nothing is 202.
   */
  readonly cancelledLine?: () => string;
  /**
   * A legacy session's stream is resumable (MCP 2025-03-26+ basic/transports, resumability): called when
   * the answer becomes an SSE stream, it gives the recorder that numbers and keeps its events. A client that
   * drops such a stream does not cancel the call (disconnection is not cancellation); a GET with
   * Last-Event-ID resumes it.
   */
  readonly resumable?: () => StreamRecorder;
  /** The SSE `retry` sent first on a resumable stream, ms. */
  readonly retryMs?: number;
  /** Where answers the client does not read are watched (write deadline, overall bound), and this one's name there (method and id). */
  readonly unread?: { readonly answers: UnreadAnswers; readonly what: string };
}

/**
 * Turns a dispatcher reply into an HTTP response (MCP basic/transports, Streamable HTTP: sending
 * messages to the server). A result that is ready, or one that arrives before any notification, is
 * one `application/json` body. When the request emits a notification first (progress) and the client
 * accepts SSE, the response becomes an SSE stream: the notifications, then the result, then the end.
 * Without SSE in Accept the notifications are dropped.
 * @param reply - what the dispatcher returned for the message.
 * @param c - the request's context (id, era, headers, notifications, completion callbacks).
 * @returns the response; for SSE it streams until the result is written.
 */
export async function answer(reply: Reply, c: AnswerContext): Promise<Response> {
  if (reply === undefined) {
    c.notes.drop();
    c.done(202);
    return new Response(null, { status: 202, headers: c.headers });
  }
  if (typeof reply === "string") return finishJson(reply, c);
  if (!c.sse) {
    c.notes.drop();
    return reply.then((line) => settled(line, c));
  }
  const winner = await Promise.race([reply.then((line) => ({ line })), c.notes.first()]);
  if (winner !== "note") return settled(winner.line, c);
  let closed = false;
  const rec = c.resumable?.();
  // A client that does not read its stream: once SSE_HIGH_WATER bytes wait in the stream, a notification
  // is held instead of queued, and a later one replaces it (latest wins; progress is one token per
  // request); the held one goes out when the client reads again, and always before the result.
  let held: string | undefined;
  let watch: { level(queued: number): void; done(): void } | undefined;
  const level = (controller: ReadableStreamDefaultController<Uint8Array>) =>
    watch?.level(Math.max(0, SSE_HIGH_WATER - (controller.desiredSize ?? SSE_HIGH_WATER)));
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // A client that takes nothing for the write deadline loses its stream, and its call is cancelled; a
        // resumable (legacy session) stream's call goes on, its events kept for a resumption, as on a disconnect.
        watch = c.unread?.answers.watch(c.unread.what, () => {
          closed = true;
          try {
            controller.error(new Error("dropped"));
          } catch {}
          if (rec) {
            if (held !== undefined) rec.record(held);
            held = undefined;
            rec.detach();
            return;
          }
          held = undefined;
          c.abort();
        });
        const enqueue = (line: string) => {
          const id = rec?.record(line);
          if (closed) return;
          try {
            controller.enqueue(sseEvent(line, id));
            level(controller);
          } catch {
            closed = true;
          }
        };
        if (rec) controller.enqueue(encoder.encode(`retry: ${c.retryMs ?? 1000}\nid: ${rec.primingId}\ndata:\n\n`));
        c.notes.attach((line) => {
          // A dropped resumable stream keeps every event for the resumption (bounded by the recorder).
          if (closed && rec) enqueue(line);
          else if (held !== undefined || (controller.desiredSize ?? 1) <= 0) held = line;
          else enqueue(line);
        });
        reply.then((line) => {
          c.notes.drop();
          if (held !== undefined) enqueue(held);
          held = undefined;
          const last = line ?? c.cancelledLine?.();
          if (last !== undefined) enqueue(last);
          rec?.finish();
          if (!closed) {
            closed = true;
            try {
              controller.close();
            } catch {}
          }
          watch?.done();
          c.done(200);
        });
      },
      pull(controller) {
        level(controller);
        if (held === undefined || closed) return;
        const line = held;
        held = undefined;
        const id = rec?.record(line);
        try {
          controller.enqueue(sseEvent(line, id));
          level(controller);
        } catch {
          closed = true;
        }
      },
      cancel() {
        closed = true;
        watch?.done();
        if (rec) {
          // Disconnection is not cancellation (MCP 2025-11-25 basic/transports): the call goes on, its events are kept.
          if (held !== undefined) rec.record(held);
          held = undefined;
          rec.detach();
          return;
        }
        held = undefined;
        c.abort();
      },
    },
    { highWaterMark: SSE_HIGH_WATER, size: (chunk) => chunk?.byteLength ?? 0 },
  );
  c.headers.set("content-type", SSE_TYPE);
  c.headers.set("cache-control", "no-cache");
  return new Response(stream, { status: 200, headers: c.headers });
}

/** A pending reply settled: its line; with nothing, the cancellation line of a request, or 202 when nothing is owed. */
function settled(line: string | undefined, c: AnswerContext): Response {
  if (line !== undefined) return finishJson(line, c);
  if (c.cancelledLine) return finishJson(c.cancelledLine(), c);
  c.notes.drop();
  c.done(202);
  return new Response(null, { status: 202, headers: c.headers });
}

function finishJson(line: string, c: AnswerContext): Response {
  c.notes.drop();
  const status = statusFor(line, c.modern);
  c.done(status);
  return jsonResponse(line, status, c.headers, c.unread);
}
