/** @module The stdio transport: stdin lines → dispatcher → the one stdout writer; EOF, signals and EPIPE. */
import { errorLine, ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { Registry } from "../server/registry.ts";
import { Session } from "../server/dispatcher.ts";
import { OVERSIZE, readLines } from "./line-reader.ts";
import { LineWriter } from "./writer.ts";
import { guardStdout } from "./stdout-guard.ts";

/**
 * Serves a registry over stdin/stdout until stdin closes (MCP basic/transports stdio).
 * On EOF, SIGTERM or SIGINT: stop reading, let in-flight calls finish within `shutdownGraceMs`, then
 * abort the rest (each still gets an isError result), flush, resolve. EPIPE on stdout ends promptly.
 * @param registry - the server.
 * @param io - streams for tests; by default the process's stdin and a guarded stdout.
 * @returns resolves when every response is written (or the client has gone away).
 */
export async function serveStdio(registry: Registry, io?: { input?: ReadableStream<Uint8Array>; outputFd?: number }): Promise<void> {
  const o = registry.options;
  const fd = io?.outputFd ?? guardStdout().fd;
  let resolveGone!: () => void;
  const gone = new Promise<void>((r) => (resolveGone = r));
  const writer = new LineWriter(fd, () => resolveGone());
  const send = (line: string | undefined) => {
    if (line !== undefined) return writer.write(line);
  };
  const session = new Session(registry, (line) => void writer.write(line));

  let stopReading!: () => void;
  const stopped = new Promise<void>((r) => (stopReading = r));
  const onSignal = () => stopReading();
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);

  const input = io?.input ?? Bun.stdin.stream();
  const reading = readLines(input, o.maxLineBytes, (line) => {
    if (line === OVERSIZE) {
      return send(errorLine(null, new RpcError(ErrorCode.ParseError, `Parse error: the line is longer than ${o.maxLineBytes} bytes (maxLineBytes) and was skipped`)));
    }
    const reply = session.handleLine(line);
    if (typeof reply === "string") {
      const p = send(reply);
      if (p) return p;
    } else if (reply !== undefined) {
      reply.then(send);
    }
    return session.belowLimit(o.maxInFlight);
  }).catch((e) => {
    process.stderr.write(`mcpbin: reading stdin failed: ${e}\n`);
  });

  await Promise.race([reading, stopped, gone]);
  if (!writer.closed) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, o.shutdownGraceMs)));
    await Promise.race([session.idle(), grace, gone]);
    clearTimeout(timer);
    session.abortAll("The server is shutting down; the call was aborted");
    // Replies to aborted calls are settled synchronously; let their `then` handlers queue the lines.
    await new Promise((r) => setImmediate(r));
    await writer.flush();
  }
  process.off("SIGTERM", onSignal);
  process.off("SIGINT", onSignal);
}
