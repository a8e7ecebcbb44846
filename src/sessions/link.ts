/** @module The server's end of a connection to one session: a client transport (src/client) over the session's Unix socket, every line authenticated (frame.ts). */
import { connect as dial } from "node:net";
import type { ClientTransport, TransportSink } from "../client/transport.ts";
import { FramedPeer } from "./frame.ts";
import { logName } from "../runtime/log-name.ts";

/**
 * A transport to the session listening at `path`. `start` resolves once the opening lines were exchanged
 * (both sides hold the per-user key); it rejects when the socket cannot be dialled (`code` ENOENT,
 * ECONNREFUSED: a stale socket) or the session does not answer within `timeoutMs`.
 * @param path - the session's socket.
 * @param key - the per-user key.
 * @param label - shown in errors (the session's name).
 * @param timeoutMs - how long the dial and handshake may take.
 */
export function sessionTransport(path: string, key: Buffer, label: string, timeoutMs = 5_000): ClientTransport {
  let peer: FramedPeer | undefined;
  return {
    label,
    start(sink: TransportSink) {
      return new Promise<void>((resolve, reject) => {
        const socket = dial(path);
        let opened = false;
        const timer = setTimeout(() => {
          reject(
            Object.assign(new Error(`session ${label}: no handshake within ${timeoutMs} ms`), { code: "ETIMEDOUT" }),
          );
          peer?.close();
        }, timeoutMs);
        socket.once("error", (e) => {
          if (!opened) {
            clearTimeout(timer);
            reject(e);
          }
        });
        peer = new FramedPeer(socket, key, "dial", {
          open: () => {
            opened = true;
            clearTimeout(timer);
            resolve();
          },
          line: (text) => sink.line(text),
          closed: (e) => {
            clearTimeout(timer);
            if (!opened)
              reject(
                e ?? Object.assign(new Error(`session ${label}: closed during the handshake`), { code: "ECONNRESET" }),
              );
            sink.closed(e ?? new Error(`session ${label} closed the connection`));
          },
          dropped: (why) => process.stderr.write(`${logName()}: session ${label}: dropped ${why}\n`),
        });
      });
    },
    async send(line: string) {
      if (!peer?.send(line)) throw new Error(`session ${label}: the connection is closed`);
    },
    async close() {
      peer?.close();
    },
  };
}
