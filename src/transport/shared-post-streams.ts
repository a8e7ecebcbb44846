/** @module Legacy POST streams resumed on another replica: the replica a GET with Last-Event-ID reaches asks, on the bus, the one whose call it is to relay that stream's events from the id on. */
import { logLine } from "../runtime/log-name.ts";
import type { Bus } from "../shared/store.ts";
import type { EventSink, StreamEvents } from "./stream-events.ts";
import { SSE_QUEUE, sseFrame } from "./http-sse.ts";

const encoder = new TextEncoder();

/** How long a replica waits for the owner of a stream to answer, ms: no answer, the stream is gone. */
const ASK_MS = 2000;

/** A resumption asked on the bus: the stream, its session, the last event the client has, where to relay. */
interface Ask {
  readonly key: string;
  readonly sid: string;
  readonly after: number;
  readonly reply: string;
}

/** What the owner relays: found (first), each event, the end (the response went), or gone (events dropped). */
type Relay = { found: true } | { line: string; id: string } | { end: true } | { gone: true };

/**
 * Resumption of legacy POST streams across replicas (MCP 2025-03-26+ basic/transports, resumability and
 * redelivery). A POST stream's events stay in the memory of the replica that runs its call (src/transport/
 * stream-events.ts); nothing is written to the store per event. A GET whose Last-Event-ID names a stream this
 * replica does not know publishes an ask; the owner relays the events after that id, then each new one, then the
 * end, on a channel of the asker's. The call's answer can only come from the replica running it: when that
 * replica has gone, so has the stream (410).
 */
export class SharedPostStreams {
  #unsubscribe: (() => Promise<void>) | undefined;

  /**
   * @param bus - the replicas' bus.
   * @param prefix - the server's key prefix and channel names.
   */
  constructor(
    readonly bus: Bus,
    readonly prefix: string,
  ) {}

  /**
   * Answers other replicas' asks for the streams of `events`.
   * @param events - this replica's POST streams.
   */
  async start(events: StreamEvents): Promise<void> {
    this.#unsubscribe = await this.bus.subscribe(`${this.prefix}post-ask`, (m) => this.#asked(events, m));
  }

  /**
   * Resumes a stream another replica runs.
   * @param key - the stream's key (the event id's part before the dot).
   * @param sid - the session the GET came with (the stream must be that session's).
   * @param after - the number of the last event the client has.
   * @param sink - takes each event; `end` when the response has gone.
   * @returns `cancel()` to stop relaying (the client left), or "gone" when no replica has those events.
   */
  async resume(
    key: string,
    sid: string,
    after: number,
    sink: EventSink,
    end: () => void,
  ): Promise<{ cancel(): void } | "gone"> {
    const reply = `${this.prefix}post-reply:${crypto.randomUUID()}`;
    let answered!: (found: boolean) => void;
    const found = new Promise<boolean>((r) => (answered = r));
    let stop: (() => Promise<void>) | undefined;
    const cancel = () => {
      answered(false);
      void stop?.().catch(() => {});
      stop = undefined;
    };
    stop = await this.bus.subscribe(reply, (m) => {
      let r: Relay;
      try {
        r = JSON.parse(m) as Relay;
      } catch {
        return;
      }
      if ("found" in r) answered(true);
      else if ("gone" in r) cancel();
      else if ("line" in r) sink(r.line, r.id);
      else {
        end();
        cancel();
      }
    });
    const ask: Ask = { key, sid, after, reply };
    await this.bus.publish(`${this.prefix}post-ask`, JSON.stringify(ask));
    const timer = setTimeout(() => answered(false), ASK_MS);
    const ok = await found;
    clearTimeout(timer);
    if (!ok) {
      cancel();
      return "gone";
    }
    return { cancel };
  }

  /**
   * The answer to a GET whose Last-Event-ID names a stream another replica runs: its events after `after` relayed
   * from there, then the new ones; the stream ends when the response has gone.
   * @param key - the stream's key.
   * @param sid - the GET's session.
   * @param after - the last event the client has.
   * @param o - the SSE `retry` (ms) and the response's headers.
   * @param gone - the answer when no replica has the stream (410).
   * @returns the SSE stream, or `gone()`.
   */
  async response(
    key: string,
    sid: string,
    after: number,
    o: { readonly retryMs: number; readonly headers: Headers },
    gone: () => Response,
  ): Promise<Response> {
    let closed = false;
    let relay: { cancel(): void } | undefined;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const end = () => {
      if (closed) return;
      closed = true;
      relay?.cancel();
      try {
        controller.close();
      } catch {}
    };
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => void (controller = c).enqueue(encoder.encode(`retry: ${o.retryMs}\n\n`)),
        cancel: () => ((closed = true), relay?.cancel()),
      },
      SSE_QUEUE,
    );
    const sink: EventSink = (line, id) => {
      if (closed) return;
      // A client that does not read: closed, to resume from its last id again.
      if ((controller.desiredSize ?? 1) <= 0) return end();
      controller.enqueue(sseFrame(line, id));
    };
    const r = await this.resume(key, sid, after, sink, end);
    if (r === "gone") return gone();
    relay = r;
    if (closed) r.cancel();
    o.headers.set("content-type", "text/event-stream");
    o.headers.set("cache-control", "no-cache");
    return new Response(body, { status: 200, headers: o.headers });
  }

  /** Stops answering asks. */
  close(): void {
    void this.#unsubscribe?.().catch(() => {});
  }

  /** Another replica asks for a stream: relayed when it is this replica's and the session's, else left to others. */
  #asked(events: StreamEvents, message: string): void {
    let ask: Ask;
    try {
      ask = JSON.parse(message) as Ask;
    } catch {
      return;
    }
    const r = events.get(ask.key);
    if (!r || r.sid !== ask.sid || typeof ask.reply !== "string" || !ask.reply.startsWith(`${this.prefix}post-reply:`))
      return;
    // One publish after another, in order: the asker writes the events as they come.
    let chain = Promise.resolve();
    const send = (relay: Relay) => {
      chain = chain
        .then(() => this.bus.publish(ask.reply, JSON.stringify(relay)))
        .catch((e) => logLine(`a resumed stream's event could not be relayed: ${(e as Error)?.message ?? e}`));
    };
    send({ found: true });
    const ok = r.resume(
      Number(ask.after),
      (line, id) => send({ line, id }),
      () => send({ end: true }),
    );
    if (!ok) send({ gone: true });
    // The client reads it elsewhere now: events that come are relayed, and kept should it resume again.
  }
}
