/** @module The stdio transport: stdin lines → dispatcher → the one stdout writer; EOF, signals and EPIPE. */
import { errorLine, ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { Registry } from "../server/registry.ts";
import { Session } from "../server/dispatcher.ts";
import { OVERSIZE, readLines } from "./line-reader.ts";
import { LineWriter } from "./writer.ts";
import { ReplyBacklog } from "./backlog.ts";
import { guardStdout } from "../runtime/stdout-guard.ts";
import { logName } from "../runtime/log-name.ts";
import { watchParent } from "../runtime/parent-watch.ts";

/**
 * Serves a registry over stdin/stdout until stdin closes (MCP basic/transports stdio).
 * - stdin EOF, SIGTERM or SIGINT: stop reading (after a signal, lines read but not yet dispatched are
 *   not started), let in-flight calls finish within `shutdownGraceMs`, then abort the rest (each still
 *   gets an isError result), flush every line, resolve. A second signal skips what is left of the grace.
 * - EPIPE on stdout (the client went away): stop reading, abort every call's signal, resolve at once.
 * - The process that started this one died (its stdin may still be held open by another): as EPIPE, and
 *   the process exits within half a second whatever is left, so upstream children end with it.
 * - Errors that tool code leaves unhandled (a rejected promise nobody awaits, a throw in a timer) are
 *   logged to stderr while serving; they never end the process.
 * Nothing here keeps the event loop alive once this resolves: stdin is cancelled, timers are cleared
 * and the signal handlers removed.
 * @param registry - the server.
 * @param io - streams for tests; by default the process's stdin and a guarded stdout.
 * @returns resolves when every response is written (or the client has gone away).
 */
export async function serveStdio(
  registry: Registry,
  io?: { input?: ReadableStream<Uint8Array>; outputFd?: number },
): Promise<void> {
  const o = registry.options;
  const fd = io?.outputFd ?? guardStdout().fd;
  const stop = new AbortController();
  let resolveGone!: () => void;
  const gone = new Promise<void>((r) => (resolveGone = r));
  const writer = new LineWriter(fd, () => {
    stop.abort();
    resolveGone();
  });
  // Every reply and notification goes through the one writer; progress is keyed by its request, so a
  // client that does not read gets the latest progress of each call, not every step.
  const backlog = new ReplyBacklog();
  const send = (line: string | undefined) => {
    if (line === undefined) return;
    backlog.sent(line.length);
    void writer.write(line);
  };
  // Only progress coalesces: log messages, listen-stream notifications and requests to the client are never replaced.
  const session = new Session(
    registry,
    (line, requestId, replaceable) => void writer.write(line, replaceable ? requestId : undefined),
  );
  // Reading waits while the writer holds highWaterMark bytes the client has not read, while maxInFlight
  // calls run, or while the replies being made would take the backlog over its bound: memory is bounded by
  // bytes buffered, whatever the client does.
  const room = (): Promise<void> | undefined => {
    const w = writer.ready() ?? session.belowLimit(o.maxInFlight) ?? backlog.room(writer.buffered, session.inFlight);
    return w && w.then(room);
  };

  let resolveForced!: () => void;
  const forced = new Promise<void>((r) => (resolveForced = r));
  // Only a second *signal* skips the grace: EOF then SIGTERM is the normal client shutdown sequence.
  let signals = 0;
  const onSignal = () => {
    if (++signals > 1) resolveForced();
    stop.abort();
  };
  const stopped = new Promise<void>((r) => stop.signal.addEventListener("abort", () => r(), { once: true }));
  const unwatch = watchParent((parent) => {
    process.stderr.write(`${logName()}: the process that started this server (pid ${parent}) has ended; exiting\n`);
    // Nobody reads our replies any more: the calls are aborted and the process ends (its exit ends the children).
    stop.abort();
    resolveGone();
    setTimeout(() => process.exit(process.exitCode ?? 0), 500).unref();
  });
  const onStray = (e: unknown) =>
    process.stderr.write(
      `${logName()}: unhandled error in tool code (the server keeps running): ${(e as Error)?.stack ?? e}\n`,
    );
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("unhandledRejection", onStray);
  process.on("uncaughtException", onStray);

  const input = io?.input ?? Bun.stdin.stream();
  const reading = readLines(
    input,
    o.maxLineBytes,
    (line) => {
      if (line === OVERSIZE) {
        send(
          errorLine(
            null,
            new RpcError(
              ErrorCode.ParseError,
              `Parse error: the line is longer than ${o.maxLineBytes} bytes (maxLineBytes) and was skipped`,
            ),
          ),
        );
        return room();
      }
      const reply = session.handleLine(line);
      if (typeof reply === "string") send(reply);
      else if (reply !== undefined) reply.then(send);
      return room();
    },
    stop.signal,
  ).catch((e) => {
    process.stderr.write(`${logName()}: reading stdin failed: ${e}\n`);
  });

  await Promise.race([reading, stopped]);
  stop.abort();
  // No answer to a request of ours can arrive any more: those waiting learn it now, not after the grace.
  session.outbound.close("the connection closed before the client answered");
  if (!writer.closed) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, o.shutdownGraceMs)));
    await Promise.race([session.idle(), grace, gone, forced]);
    clearTimeout(timer);
  }
  session.abortAll(
    writer.closed ? "The client went away; the call was aborted" : "The server is shutting down; the call was aborted",
  );
  if (!writer.closed) {
    // Replies to aborted calls are settled synchronously; let their `then` handlers queue the lines.
    await new Promise((r) => setImmediate(r));
    await writer.flush();
  }
  unwatch();
  process.off("SIGTERM", onSignal);
  process.off("SIGINT", onSignal);
  process.off("unhandledRejection", onStray);
  process.off("uncaughtException", onStray);
}
