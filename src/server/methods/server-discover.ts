/** @module server/discover (2026-07-28): the versions served, the capabilities and instructions; cacheable (MCP 2026-07-28 server/discovery). */
import { SUPPORTED_VERSIONS } from "../../protocol/versions.ts";
import type { MethodSpec } from "../method.ts";
import { projectRegistered } from "../register.ts";
import { withUiExtension } from "../ui.ts";
import { withSkillsExtension } from "../../skills/methods.ts";

/** The `server/discover` entry; the capabilities are the ones the connection's table advertises. */
export const serverDiscover: MethodSpec<unknown, Record<string, unknown>> = {
  name: "server/discover",
  eras: ["modern"],
  cacheable: true,
  handle(_p, ctx) {
    const registry = ctx.connection.registry;
    let capabilities = ctx.connection.table.advertised(registry);
    // A live tool set (createServer's listChanged, upstreams, or changed already): a subscriptions/listen stream hears of changes.
    if (registry.listChanged && capabilities.tools !== undefined) capabilities = { ...capabilities, tools: { ...capabilities.tools, listChanged: true } };
    const result: Record<string, unknown> = { supportedVersions: SUPPORTED_VERSIONS, capabilities: projectRegistered(withSkillsExtension(withUiExtension(capabilities, ctx, true), (registry as { skills?: import("../../skills/skill-set.ts").SkillSet }).skills), ctx) };
    const instructions = registry.options.instructions;
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  },
};
