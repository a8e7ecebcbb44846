/** @module The tools capability registered with the core: tools/list and tools/call, the `tools` capability, and a live tool set's `listChanged`. */
import { META } from "../protocol/meta.ts";
import { registerCapability, type SpanTarget } from "../server/register.ts";
import { installToolSet } from "./server-state.ts";
import { toolsCall } from "./methods/tools-call.ts";
import { toolsList } from "./methods/tools-list.ts";

/** The tool a `tools/call`'s params name, when the server has it (its span's target). */
const toolNamed: SpanTarget = (params, registry) => {
  const name = (params as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" && registry.tools.has(name) ? name : undefined;
};

registerCapability({
  name: "tools",
  methods: [toolsList, toolsCall],
  // Its live tool set: registry.tools, addTool(), … (src/tools/tool-set.ts).
  server: installToolSet,
  capabilities: [{ name: "tools", advertise: () => ({}) }],
  // A tools/call span is named by its tool when the server has it (a name it lacks stays out of span names).
  spanTargets: { "tools/call": toolNamed },
  // A tool may log (ctx.log): the core advertises `logging` when the server has one.
  logs: (r) => r.tools.size > 0,
  // A live tool set (createServer's listChanged, upstreams, or changed already): `tools.listChanged`.
  project(caps, ctx) {
    const tools = caps.tools as Record<string, unknown> | undefined;
    return ctx.connection.registry.listChanged && tools !== undefined
      ? { ...caps, tools: { ...tools, listChanged: true } }
      : caps;
  },
  // A legacy session told `listChanged` hears of every later change (notifications/tools/list_changed).
  initialized(ctx, caps) {
    if ((caps.tools as Record<string, unknown> | undefined)?.listChanged === true)
      ctx.connection.registry.watch(ctx.connection);
  },
  // A live tool set (createServer's listChanged, or changed already) tells a listen stream of each change.
  listen(asked, ctx) {
    const registry = ctx.connection.registry;
    if (asked.toolsListChanged !== true || !registry.listChanged) return undefined;
    const meta = { [META.subscriptionId]: ctx.requestId };
    const close = registry.onToolsChanged(() => ctx.notify("notifications/tools/list_changed", { _meta: meta }));
    return { honoured: { toolsListChanged: true }, close };
  },
});
