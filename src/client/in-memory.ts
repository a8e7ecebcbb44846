/** @module An in-memory transport to a server of this process (createServer()): the real pipeline, no process, no pipes; what connect(server) uses. */
import { Session } from "../server/dispatcher.ts";
import { registryOf, type McpServer } from "../server/mcp-server.ts";
import type { RequestExtras } from "../server/connection.ts";
import type { ClientTransport, TransportSink } from "./transport.ts";

/**
 * A {@link ClientTransport} whose other end is a connection to `server` in this process: each line the
 * client sends goes through the server's pipeline (envelope, era, method table, middleware, projection)
 * as a stdio line would, and every response and notification comes back as a line. Nothing is shared
 * between two such transports but the server itself.
 * @param server - made by createServer() (it need not be serving).
 * @param extras - what the server is told of each line besides the line (mount(): the caller of the parent's
 *   request, so the mounted server's scope checks and `ctx.auth` see it); default nothing.
 * @returns the transport.
 */
export function inMemoryTransport(server: McpServer, extras?: () => RequestExtras | undefined): ClientTransport {
  const registry = registryOf(server);
  let sink: TransportSink | undefined;
  let session: Session | undefined;
  let open = false;
  const deliver = (line: string | undefined) => {
    if (line !== undefined && open) queueMicrotask(() => open && sink!.line(line));
  };
  return {
    label: `in-memory ${registry.options.name}`,
    async start(s) {
      sink = s;
      open = true;
      session = new Session(registry, (line) => deliver(line));
    },
    async send(line) {
      if (!open || session === undefined)
        throw new Error(`in-memory ${registry.options.name}: the transport is closed`);
      const reply = session.handleLine(line, extras?.());
      if (typeof reply === "string") deliver(reply);
      else if (reply !== undefined) void reply.then(deliver, () => {});
    },
    async close() {
      if (!open) return;
      open = false;
      session?.abortAll("the client closed the connection");
      registry.unwatch(session!);
      sink?.closed(undefined);
    },
  };
}
