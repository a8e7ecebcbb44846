/** @module The client's transport contract: send one JSON-RPC line, receive lines, learn when the peer is gone. */
import type { RequestId } from "../protocol/jsonrpc.ts";

/** Where a transport delivers what the server sends. */
export interface TransportSink {
  /**
   * One JSON-RPC message as text (a line of stdout, one SSE `data`, or one JSON body). `relatedId`: the id of
   * our request whose reply stream carried it (HTTP: a POST's SSE stream); undefined when the transport
   * cannot tell (stdio, the HTTP GET stream).
   */
  line(text: string, relatedId?: RequestId): void;
  /**
   * A message over the transport's size limit was dropped unread (it was never buffered whole); `head` is
   * its first bytes as text, so the client can fail the request it answered at once.
   */
  oversize?(head: string, limit: number): void;
  /** The transport is gone for good (process exited, stream ended, close() called); `error` says why when it was not close(). */
  closed(error: Error | undefined): void;
}

/**
 * A message channel to one MCP server, as the client sees it (MCP basic/transports). Implementations:
 * {@link import("./stdio.ts").stdioTransport} (a child process over pipes) and
 * {@link import("./http.ts").httpTransport} (Streamable HTTP); an in-memory pair works the same way.
 * A transport moves messages; it knows no method other than what the HTTP headers must mirror.
 */
export interface ClientTransport {
  /** Shown in errors and logs, e.g. the server's configured name or its URL (never a header value). */
  readonly label: string;
  /**
   * Starts the channel (spawns the process, or nothing for HTTP) and starts delivering to `sink`.
   * @throws Error when it cannot start (e.g. the command does not exist).
   */
  start(sink: TransportSink): Promise<void>;
  /**
   * Sends one JSON-RPC message (no trailing newline). A reply may arrive before the promise settles.
   * @throws Error when the channel is closed or the server refused the message at the transport level.
   */
  send(line: string): Promise<void>;
  /** Tells a transport that carries the version in headers (HTTP) which legacy version `initialize` negotiated. */
  negotiated?(version: string): void;
  /** Ends the channel: stdin closed and the child ended (SIGTERM, then SIGKILL); HTTP: the session deleted. Idempotent. */
  close(): Promise<void>;
}
