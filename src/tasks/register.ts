/** @module The tasks capability registered with the core: its methods, tools/call wrapped, the `tasks` capability (2025-11-25) or the extension (2026-07-28) advertised. */
import { registerCapability } from "../server/register.ts";
import type { ServerOptions } from "../shared/server-options.ts";
import "./context.ts";
import { withTasks } from "./call.ts";
import { withTaskNotifications } from "./listen.ts";
import { checkTasksOptions, hasTasks } from "./engines.ts";
import { TASK_METHODS } from "./methods.ts";
import { TASKS_EXTENSION } from "./record.ts";

/** The 2025-11-25 server capability (basic/utilities/tasks "Server Capabilities"). */
const LEGACY_CAPABILITY = Object.freeze({ list: {}, cancel: {}, requests: { tools: { call: {} } } });

/**
 * Registers tasks with the core when a server needs them (the `tasks` option, or a tool with `task`), after
 * checking the option.
 * @param options - the server's options.
 * @throws ToolDefinitionError for a bad `tasks` option.
 */
export function enableTasks(options: ServerOptions): void {
  checkTasksOptions(options.tasks);
  const tools = (options.tools as unknown[]).flat(Infinity) as { definition?: { task?: string } }[];
  // Upstreams (a gateway's tools arrive later) may bring tools that run as tasks.
  if (
    options.tasks === undefined &&
    options.upstreams === undefined &&
    !tools.some((t) => t?.definition?.task === "optional" || t?.definition?.task === "required")
  )
    return;
  registerCapability({
    name: "tasks",
    methods: TASK_METHODS,
    wraps: { "tools/call": withTasks, "subscriptions/listen": withTaskNotifications },
    capabilities: [{ name: "tasks", advertise: (r) => (hasTasks(r) ? LEGACY_CAPABILITY : undefined) }],
    project(caps, ctx) {
      if (caps.tasks === undefined) return caps;
      const { tasks: _, ...rest } = caps;
      // 2026-07-28: under capabilities.extensions, never capabilities.tasks (the extension's "Capability Negotiation").
      if (ctx.era === "modern")
        return { ...rest, extensions: { ...(caps.extensions as object | undefined), [TASKS_EXTENSION]: {} } };
      // At initialize the request's features are the newest legacy version's: the version just negotiated decides.
      return (ctx.connection.version ?? ctx.features.version) === "2025-11-25" ? caps : rest;
    },
  });
}
