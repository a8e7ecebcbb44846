/** @module createServer(): a server object (its tools can change while it serves, middleware around every request) whose serve() runs it; serve(options) is createServer(options).serve(). */
import "./capabilities.ts";
import { Registry } from "../server/registry.ts";
import { rememberRegistry, type McpServer, type MountedServer } from "../server/mcp-server.ts";

export { registryOf, type McpServer } from "../server/mcp-server.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import { serveRegistry } from "./run-server.ts";
import type { Front } from "../client/front.ts";
import type { Middleware } from "../server/middleware-api.ts";
import type { RequestContext } from "../server/context.ts";
import { installedCollector } from "../runtime/collector.ts";
import { deferredProvider } from "../content/provider.ts";
import { skillsOption } from "../skills/skill-set.ts";
import { enableTasks } from "../tasks/register.ts";
import { checkNestedKeys } from "./nested-keys.ts";
import { logName } from "../runtime/log-name.ts";

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
  // Their resources and prompts are served through a provider that stands for the gateway's once attached.
  // Skill folders resolve against the module that calls (the check run builds the server again from these options).
  skillsOption(options.skills);
  let front: Promise<Front> | undefined;
  const content = options.upstreams === undefined ? undefined : deferredProvider();
  const getFront = (): Promise<Front> =>
    (front ??= import("../client/front.ts").then((m) => {
      const f = m.attachUpstreams(registry, options.upstreams!, { naming: options.upstreamNaming });
      content!.set(f.gateway.content);
      return f;
    }));
  const waitForUpstreams: Middleware = async (req, next) => {
    // The pipeline's request carries its RequestContext, whose entry the look-up set (compose(), before any middleware).
    if ((req.ctx as RequestContext).spec?.waitsForUpstreams === true) await (await getFront()).ready();
    // The capabilities advertised follow the upstreams' (the eager ones have answered by the first message).
    else if (req.method === "initialize" || req.method === "server/discover") await getFront();
    return next(req);
  };
  const registry = new Registry(
    options.upstreams === undefined
      ? options.sessions === undefined
        ? options
        : { ...options, listChanged: true }
      : {
          ...options,
          listChanged: true,
          middleware: [waitForUpstreams, ...(options.middleware ?? [])],
          resources: [...(options.resources ?? []), content!.provider],
        },
  );
  checkNestedKeys(options);
  // Tasks (src/tasks/): registered with the core when the options or a tool ask for them.
  enableTasks(options);
  // Live sessions (src/sessions): loaded only then; their tools join the registry as sessions come and go.
  let sessions: Promise<{ close(): Promise<void> }> | undefined;
  const startSessions = (how: { http: boolean }) =>
    options.sessions === undefined
      ? Promise.resolve()
      : (sessions = import("../sessions/attach.ts").then(async (m) => {
          let s: Awaited<ReturnType<typeof m.attachSessions>>;
          try {
            s = m.attachSessions(registry, options.sessions!);
          } catch (e) {
            // A malformed MCPBIN_SESSION_TIMEOUT_MS: one line and exit 2, as for a bad --http value.
            process.stderr.write(`${logName()}: ${(e as Error).message}\n`);
            process.exit(2);
          }
          await s.start(how);
          return s;
        })).then(() => {});
  const endSessions = () =>
    sessions
      ? sessions.then(
          (s) => s.close(),
          () => {},
        )
      : Promise.resolve();
  let served = false;
  // Servers mounted with mount(): serve() waits for those under way, and ends them after the last message.
  const mounted = new Map<string, MountedServer>();
  const mounting = new Set<Promise<unknown>>();
  const mountsReady = (): Promise<unknown> => Promise.allSettled([...mounting]);
  const unmountAll = (): Promise<unknown> => Promise.allSettled([...mounted.values()].map((m) => m.unmount()));
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
      if (
        installedCollector<ServerOptions>() ||
        (options.upstreams === undefined && options.sessions === undefined && mounting.size === 0 && mounted.size === 0)
      )
        return serveRegistry(registry, options);
      // Mounts under way finish, and eager upstreams start, before the first message is read (their instructions are in our handshake).
      return serveRegistry(registry, options, {
        before: (how) =>
          mountsReady()
            .then(() => (options.upstreams === undefined ? undefined : getFront().then((f) => f.start())))
            .then(() => startSessions(how)),
        after: () => Promise.all([unmountAll(), front ? front.then((f) => f.close()) : undefined]).then(endSessions),
      });
    },
    mount(child, mountOptions) {
      const p = import("./mount.ts").then((m) => m.mountServer(registry, child, mountOptions, mounted));
      mounting.add(p);
      void p.then(
        () => mounting.delete(p),
        () => mounting.delete(p),
      );
      return p;
    },
  };
  registry.server = server;
  rememberRegistry(server, registry);
  return server;
}
