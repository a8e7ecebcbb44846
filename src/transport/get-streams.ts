/** @module Legacy GET SSE streams (2025-03-26 … 2025-11-25): one per session, fed from the change feed, with event ids, `retry`, keep-alives, and resumption with Last-Event-ID (of a GET stream or of a dropped POST stream). */
import { ErrorCode } from "../protocol/jsonrpc.ts";
import { primingFrame, SSE_QUEUE, sseFrame } from "./http-sse.ts";
import type { Session } from "../server/dispatcher.ts";
import { feedLine, type ChangeFeed, type FeedEntry } from "./change-feed.ts";
import { rpcErrorResponse } from "./http-reply.ts";
import type { LegacySession } from "./http-sessions.ts";
import type { StreamEvents } from "./stream-events.ts";
import type { SharedPostStreams } from "./shared-post-streams.ts";
import { subscriptionsOf } from "../content/subscriptions.ts";

const encoder = new TextEncoder();

/** Options of the GET streams. */
export interface GetStreamOptions {
  /** The SSE `retry` sent first on every stream, ms. */
  readonly retryMs: number;
  /** An SSE comment is sent this often on idle streams, ms (0 = never). */
  readonly keepAliveMs: number;
  /** The other replicas' POST streams (http.redis), resumed through the bus. */
  readonly remote?: SharedPostStreams;
}

/** One open GET stream. */
interface OpenStream {
  readonly sid: string;
  readonly session: Session;
  /** The session was told tools `listChanged` (fixed at initialize). */
  readonly tools: boolean;
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  /** The last feed entry this stream has passed (sent or not its session's). */
  lastSeq: number;
  /** Entries that arrived while the replay was read. */
  pending: FeedEntry[] | undefined;
  closed: boolean;
  end(): void;
}

const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/** The GET streams of one HTTP endpoint. */
export class GetStreams {
  readonly #open = new Map<string, OpenStream>();
  readonly #stopFeed: () => void;
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly feed: ChangeFeed,
    readonly events: StreamEvents,
    readonly o: GetStreamOptions,
  ) {
    this.#stopFeed = feed.onEntry((e) => {
      for (const s of this.#open.values()) {
        if (s.pending) s.pending.push(e);
        else this.#deliver(s, e);
      }
    });
  }

  /** Open GET streams. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Answers a GET on the endpoint for a legacy session (MCP 2025-03-26+ basic/transports, listening for
   * messages from the server; resumability and redelivery). A new stream replaces the session's previous one.
   * @param req - the GET (its Last-Event-ID is read).
   * @param s - the session (its Mcp-Session-Id was checked).
   * @returns an SSE stream; 410 when a Last-Event-ID names a stream or events no longer kept; 400 for a malformed one.
   */
  async open(req: Request, s: LegacySession): Promise<Response> {
    const last = req.headers.get("last-event-id")?.trim();
    const headers = new Headers({ "content-type": "text/event-stream", "cache-control": "no-cache" });
    if (last) {
      const post = this.events.find(last, s.id);
      const key = last.slice(0, last.indexOf("."));
      if (post && !this.events.get(key) && this.o.remote)
        return this.o.remote.response(key, s.id, post.after, { retryMs: this.o.retryMs, headers }, () =>
          this.#gone(last, headers),
        );
      if (post) return this.#resumePost(post.recorder, post.after, last, headers);
    }
    let from: number | "gap";
    if (last) {
      const m = /^g([0-9a-z]{1,16})\.(\d{1,15})$/.exec(last);
      if (!m)
        return rpcErrorResponse(
          400,
          null,
          ErrorCode.InvalidRequest,
          `Bad Request: Last-Event-ID ${JSON.stringify(last.slice(0, 80))} is not an event id of this server`,
          headers,
        );
      from = m[1] === this.feed.epoch ? Number(m[2]) : "gap";
    } else from = await this.feed.head();
    this.#open.get(s.id)?.end(); // one GET stream per session: the newest wins
    const tools = s.session.registry.watches(s.session);
    let stream!: OpenStream;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          stream = {
            sid: s.id,
            session: s.session,
            tools,
            controller,
            lastSeq: typeof from === "number" ? from : 0,
            pending: [],
            closed: false,
            end: () => {
              if (stream.closed) return;
              stream.closed = true;
              if (this.#open.get(s.id) === stream) this.#open.delete(s.id);
              s.active--;
              try {
                controller.close();
              } catch {}
            },
          };
          s.active++;
          this.#open.set(s.id, stream);
        },
        cancel: () => stream.end(),
      },
      SSE_QUEUE,
    );
    this.#startKeepAlive();
    const replay = typeof from === "number" && last ? await this.feed.since(from) : [];
    if (replay === "gone" || from === "gap") {
      // Says so, then has the client list again what its session watches: changes in between are lost.
      this.#write(
        stream,
        encoder.encode(
          `: events after ${last} are no longer kept; sending list_changed for what this session watches\n\n`,
        ),
      );
      stream.lastSeq = await this.feed.head();
      for (const topic of ["tools", "resources", "prompts"] as const) {
        if (this.#wants(stream, { seq: 0, topic })) this.#write(stream, sseFrame(feedLine({ seq: 0, topic })));
      }
      for (const uri of subscriptionsOf.get(s.session).uris())
        this.#write(stream, sseFrame(feedLine({ seq: 0, topic: "resource", uri })));
      headers.set("x-mcpbin-replay", "gap");
    }
    this.#write(stream, primingFrame(this.o.retryMs, `g${this.feed.epoch}.${stream.lastSeq}`));
    if (replay !== "gone") for (const e of replay) this.#deliver(stream, e);
    const pending = stream.pending ?? [];
    stream.pending = undefined;
    for (const e of pending) this.#deliver(stream, e);
    return new Response(body, { status: 200, headers });
  }

  /** Ends every stream (shutdown or drain): clients reconnect after `retry`, elsewhere behind a load balancer. */
  endAll(): void {
    for (const s of [...this.#open.values()]) s.end();
  }

  /** Ends the stream of a session that ended. */
  endSession(sid: string): void {
    this.#open.get(sid)?.end();
  }

  /** Ends every stream and stops listening to the feed. */
  close(): void {
    this.endAll();
    this.#stopFeed();
    if (this.#keepAlive) clearInterval(this.#keepAlive);
  }

  #resumePost(
    recorder: ReturnType<StreamEvents["open"]> | undefined,
    after: number,
    last: string,
    headers: Headers,
  ): Response {
    const gone = () => this.#gone(last, headers);
    if (!recorder) return gone();
    let closed = false;
    let ok = true;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const end = () => {
          if (closed) return;
          closed = true;
          try {
            controller.close();
          } catch {}
        };
        controller.enqueue(encoder.encode(`retry: ${this.o.retryMs}\n\n`));
        ok = recorder.resume(after, (line, id) => !closed && controller.enqueue(sseFrame(line, id)), end);
      },
      cancel: () => {
        closed = true;
        recorder.detach();
      },
    });
    if (!ok) return gone();
    headers.set("content-type", "text/event-stream");
    headers.set("cache-control", "no-cache");
    return new Response(body, { status: 200, headers });
  }

  #gone(last: string, headers: Headers): Response {
    return rpcErrorResponse(
      410,
      null,
      ErrorCode.InvalidRequest,
      `Gone: the events after ${JSON.stringify(last)} are no longer kept (the stream ended long ago, or its events were dropped)`,
      headers,
    );
  }

  #wants(s: OpenStream, e: FeedEntry): boolean {
    switch (e.topic) {
      case "session":
        return e.sid === s.sid;
      case "tools":
        return s.tools;
      case "resources":
        return subscriptionsOf.get(s.session).watchesList;
      case "prompts":
        return subscriptionsOf.get(s.session).watchesPrompts;
      case "resource":
        return e.uri !== undefined && subscriptionsOf.get(s.session).has(e.uri);
    }
  }

  #deliver(s: OpenStream, e: FeedEntry): void {
    if (s.closed || e.seq <= s.lastSeq) return;
    s.lastSeq = e.seq;
    if (this.#wants(s, e)) this.#write(s, sseFrame(feedLine(e), `g${this.feed.epoch}.${e.seq}`));
  }

  #write(s: OpenStream, bytes: Uint8Array): void {
    if (s.closed) return;
    // A client that does not read: closing lets it resume from its last id, and memory stays bounded.
    if ((s.controller.desiredSize ?? 1) <= 0) return s.end();
    try {
      s.controller.enqueue(bytes);
    } catch {
      s.end();
    }
  }

  #startKeepAlive(): void {
    if (this.#keepAlive || this.o.keepAliveMs <= 0) return;
    this.#keepAlive = setInterval(() => {
      for (const s of [...this.#open.values()]) this.#write(s, KEEP_ALIVE);
      if (this.#open.size === 0) {
        clearInterval(this.#keepAlive);
        this.#keepAlive = undefined;
      }
    }, this.o.keepAliveMs);
    this.#keepAlive.unref?.();
  }
}
