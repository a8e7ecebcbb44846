/** @module Authenticated lines over a Unix socket between a server and a session: HMAC-SHA256 on every message both ways, a fresh pair of nonces per connection, a sequence number per direction; a line without a valid MAC is dropped and logged. Runs in Bun and in Node ≥ 20. */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";

/** The longest line accepted, bytes (a longer one ends the connection: memory stays bounded). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** Bytes written but not yet taken by the peer after which the connection is ended (a peer that stopped reading). */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** Lines with a bad MAC tolerated on one connection before it is ended. */
export const MAX_BAD_FRAMES = 16;

/**
 * The MAC of one line: HMAC-SHA256 under the per-user key over the connection's label, the direction, the
 * sequence number and the text, base64url.
 * @param key - the per-user key.
 * @param label - `hello` for the two opening lines, else both nonces joined.
 * @param dir - `d` (dialer → acceptor) or `a` (acceptor → dialer).
 * @param seq - the line's number in its direction, from 0.
 * @param text - the JSON text.
 */
export function mac(key: Buffer, label: string, dir: "d" | "a", seq: number, text: string): string {
  return createHmac("sha256", key).update(`${label}\n${dir}\n${seq}\n`).update(text).digest("base64url");
}

/** What a {@link FramedPeer} reports. */
export interface PeerEvents {
  /** The handshake finished: lines flow now. `hello` is what the other side put in its opening line. */
  open?(hello: Record<string, unknown>): void;
  /** One authenticated message (JSON text). */
  line(text: string): void;
  /** The connection ended (once); `error` says why when it was not close(). */
  closed(error: Error | undefined): void;
  /** A line was dropped (bad MAC, bad handshake): one sentence for the log. */
  dropped(why: string): void;
}

/**
 * One end of an authenticated connection. The dialer (the server) opens with `{"n": <nonce>}`; the acceptor
 * (the session) answers with its own nonce and what it says about itself. Every later line is
 * `<mac> <json>\n`, the MAC binding both nonces (no line of another connection can be replayed), the
 * direction and the line's number (none can be replayed, dropped or reordered unnoticed within one).
 */
export class FramedPeer {
  readonly #socket: Socket;
  readonly #key: Buffer;
  readonly #role: "d" | "a";
  readonly #events: PeerEvents;
  readonly #nonce = randomBytes(16).toString("base64url");
  #label: string | undefined;
  #sent = 0;
  #received = 0;
  #bad = 0;
  #chunks: Buffer[] = [];
  #size = 0;
  #ended = false;
  /** What this side says in its opening line (acceptor). */
  readonly #hello: Record<string, unknown>;

  /**
   * @param socket - a connected socket.
   * @param key - the per-user key.
   * @param role - `dial` (sends the first line) or `accept`.
   * @param events - where lines and the end go.
   * @param hello - what the acceptor says about itself in its opening line.
   */
  constructor(
    socket: Socket,
    key: Buffer,
    role: "dial" | "accept",
    events: PeerEvents,
    hello: Record<string, unknown> = {},
  ) {
    this.#socket = socket;
    this.#key = key;
    this.#role = role === "dial" ? "d" : "a";
    this.#events = events;
    this.#hello = hello;
    socket.on("data", (b: Buffer) => this.#data(b));
    socket.on("error", (e) => this.#end(e));
    socket.on("close", () => this.#end(undefined));
    if (this.#role === "d") this.#write("hello", 0, JSON.stringify({ n: this.#nonce }));
  }

  /** True once the handshake finished and until the end. */
  get open(): boolean {
    return this.#label !== undefined && !this.#ended;
  }

  /**
   * Sends one message (JSON text, no newline).
   * @returns false when the connection is not open (the line is not sent).
   */
  send(text: string): boolean {
    if (!this.open) return false;
    this.#write(this.#label!, this.#sent++, text);
    if (this.#socket.writableLength > MAX_BUFFERED_BYTES)
      this.close(new Error(`the peer stopped reading (${MAX_BUFFERED_BYTES} bytes waiting)`));
    return true;
  }

  /** Ends the connection (idempotent). */
  close(error?: Error): void {
    this.#socket.destroy();
    this.#end(error);
  }

  #write(label: string, seq: number, text: string): void {
    this.#socket.write(`${mac(this.#key, label, this.#role, seq, text)} ${text}\n`);
  }

  #end(error: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#chunks = [];
    this.#socket.destroy();
    this.#events.closed(error);
  }

  #data(b: Buffer): void {
    let start = 0;
    for (let i = b.indexOf(10); i !== -1 && !this.#ended; i = b.indexOf(10, start)) {
      const part = b.subarray(start, i);
      const line = this.#chunks.length === 0 ? part : Buffer.concat([...this.#chunks, part]);
      this.#chunks = [];
      this.#size = 0;
      start = i + 1;
      this.#frame(line.toString("utf8"));
    }
    if (this.#ended || start >= b.length) return;
    this.#size += b.length - start;
    if (this.#size > MAX_FRAME_BYTES) return this.close(new Error(`a line longer than ${MAX_FRAME_BYTES} bytes`));
    this.#chunks.push(Buffer.from(b.subarray(start)));
  }

  #frame(line: string): void {
    const sp = line.indexOf(" ");
    const given = sp === -1 ? "" : line.slice(0, sp);
    const text = sp === -1 ? line : line.slice(sp + 1);
    const other = this.#role === "d" ? "a" : "d";
    const label = this.#label ?? "hello";
    const seq = this.#label === undefined ? 0 : this.#received;
    const want = Buffer.from(mac(this.#key, label, other, seq, text));
    const got = Buffer.from(given);
    if (got.length !== want.length || !timingSafeEqual(got, want))
      return this.#reject(
        this.#label === undefined ? "an opening line without a valid MAC" : `message ${seq} without a valid MAC`,
      );
    if (this.#label !== undefined) {
      this.#received++;
      return this.#events.line(text);
    }
    let hello: Record<string, unknown>;
    try {
      hello = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.#reject("an opening line that is not JSON");
    }
    if (typeof hello?.n !== "string" || hello.n.length < 16) return this.#reject("an opening line without a nonce");
    const [d, a] = this.#role === "d" ? [this.#nonce, hello.n] : [hello.n, this.#nonce];
    if (this.#role === "a") this.#write("hello", 0, JSON.stringify({ ...this.#hello, n: this.#nonce }));
    this.#label = `${d}.${a}`;
    this.#events.open?.(hello);
  }

  #reject(why: string): void {
    this.#events.dropped(why);
    if (++this.#bad >= MAX_BAD_FRAMES) this.close(new Error(`${MAX_BAD_FRAMES} lines without a valid MAC`));
  }
}
