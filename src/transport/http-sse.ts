/** @module Server-sent events of HTTP answers: the one encoding of an SSE event (where an HTTP line is made well-formed), the notifications of a request, and the stream an answer becomes when progress comes first. */
import { wellFormedLine } from "../protocol/well-formed.ts";
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { Sink } from "./http-sessions.ts";
import type { StreamRecorder } from "./stream-events.ts";
import type { UnreadAnswers } from "./http-unread.ts";

const SSE_TYPE = "text/event-stream";
const encoder = new TextEncoder();

/** An SSE event: optional id, the line as data (made well-formed Unicode here, for every SSE stream). */
export function sseFrame(line: string, id?: string): Uint8Array {
  return encoder.encode(`${id === undefined ? "" : `id: ${id}\n`}event: message\ndata: ${wellFormedLine(line)}\n\n`);
}

/** The first bytes of a resumable stream: `retry` and a priming event (an id, empty data), MCP 2025-11-25 basic/transports. */
export function primingFrame(retryMs: number, id: string): Uint8Array {
  return encoder.encode(`retry: ${retryMs}\nid: ${id}\ndata:\n\n`);
}

/**
 * @param req - the HTTP request.
 * @returns true when its Accept header admits `text/event-stream`.
 */
export function acceptsSse(req: Request): boolean {
  const a = req.headers.get("accept");
  return a !== null && (a.includes(SSE_TYPE) || a.includes("text/*"));
}

/** Bytes an SSE stream may hold for a client that is not reading: past them a POST stream coalesces notifications, a GET or resumed stream is closed (the client resumes from its last id). */
const SSE_HIGH_WATER = 1 << 16;

/** The queuing strategy of every SSE stream: {@link SSE_HIGH_WATER} bytes. */
export const SSE_QUEUE: QueuingStrategy<Uint8Array> = {
  highWaterMark: SSE_HIGH_WATER,
  size: (chunk) => chunk?.byteLength ?? 0,
};

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

/** What `answer()` (src/transport/http-reply.ts) needs from the transport for one request. */
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
  readonly unread?: { readonly answers: UnreadAnswers; readonly what: string; readonly kind?: string };
}

/**
 * The SSE stream of an answer whose request sent a notification before its result (MCP basic/transports,
 * Streamable HTTP: sending messages to the server): the notifications, then the result, then the end.
 * @param reply - the pending reply.
 * @param c - the request's context.
 * @returns the streaming response (status 200).
 */
export function sseAnswer(reply: Promise<string | undefined>, c: AnswerContext): Response {
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
            controller.enqueue(sseFrame(line, id));
            level(controller);
          } catch {
            closed = true;
          }
        };
        if (rec) controller.enqueue(primingFrame(c.retryMs ?? 1000, rec.primingId));
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
          if (last !== undefined) {
            c.unread?.answers.made(c.unread.kind ?? "", last.length);
            enqueue(last);
          }
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
          controller.enqueue(sseFrame(line, id));
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
    SSE_QUEUE,
  );
  c.headers.set("content-type", SSE_TYPE);
  c.headers.set("cache-control", "no-cache");
  return new Response(stream, { status: 200, headers: c.headers });
}
