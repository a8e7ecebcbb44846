/** @module createServer(): a server object (its tools can change while it serves, middleware around every request) whose serve() runs it; serve(options) is createServer(options).serve(). */
import { Registry } from "./server/registry.ts";
import { rememberRegistry, type McpServer } from "./server/mcp-server.ts";

export { registryOf, type McpServer } from "./server/mcp-server.ts";
import type { ServerOptions } from "./server/options.ts";
import { serveRegistry } from "./run-server.ts";
import type { Front } from "./client/front.ts";
import type { Middleware } from "./server/middleware-api.ts";
import { installedCollector } from "./runtime/collector.ts";


/**
 * Makes a server without starting it (MCP server/tools; `notifications/tools/list_changed` for a live tool set).
 * @param options - as `serve()` takes, plus `middleware` (run around every request, outermost first) and
 *   `listChanged` (advertise `tools.listChanged` from the start; it is advertised anyway to sessions that
 *   begin after the tool set first changed).
 * @returns the server; `createServer(options).serve()` is what `serve(options)` does.
 * @throws ToolDefinitionError (synchronously) on a bad option or two tools with one name; TypeError on a
 *   middleware entry that is not a function.
 */
export function createServer(options: ServerOptions): McpServer {
  // Other servers fronted (`upstreams`): loaded only then; their tools join the registry as the upstreams answer.
  let front: Promise<Front> | undefined;
  const getFront = (): Promise<Front> =>
    (front ??= import("./client/front.ts").then((m) => m.attachUpstreams(registry, options.upstreams!, { naming: options.upstreamNaming })));
  const waitForUpstreams: Middleware = async (req, next) => {
    if (req.method === "tools/list" || req.method === "tools/call") await (await getFront()).ready();
    return next(req);
  };
  const registry = new Registry(
    options.upstreams === undefined ? options : { ...options, listChanged: true, middleware: [waitForUpstreams, ...(options.middleware ?? [])] },
  );
  let served = false;
  const server: McpServer = {
    name: registry.options.name,
    version: registry.options.version,
    get tools() {
      return registry.tools;
    },
    addTool: (t) => registry.addTool(t),
    removeTool: (name) => registry.removeTool(name),
    enableTool: (name, enabled = true) => registry.enableTool(name, enabled),
    serve() {
      if (served) return Promise.reject(new Error(`server "${registry.options.name}": serve() was called twice`));
      served = true;
      if (options.upstreams === undefined || installedCollector()) return serveRegistry(registry, options);
      // Eager upstreams start before the first message is read, so their instructions are in our handshake.
      return serveRegistry(registry, options, {
        before: () => getFront().then((f) => f.start()),
        after: () => (front ? front.then((f) => f.close()) : Promise.resolve()),
      });
    },
  };
  registry.server = server;
  rememberRegistry(server, registry);
  return server;
}
