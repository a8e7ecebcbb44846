/** @module server/discover (2026-07-28): the versions served, the capabilities and instructions; cacheable (MCP 2026-07-28 server/discovery). */
import { SUPPORTED_VERSIONS } from "../../protocol/versions.ts";
import type { MethodSpec } from "../method.ts";
import { projectRegistered } from "../register.ts";

/** The `server/discover` entry; the capabilities are the ones the connection's table advertises. */
export const serverDiscover: MethodSpec<unknown, Record<string, unknown>> = {
  name: "server/discover",
  eras: ["modern"],
  cacheable: true,
  handle(_p, ctx) {
    const registry = ctx.connection.registry;
    // The table's capabilities, as each registered capability shapes them (src/server/register.ts).
    const capabilities = projectRegistered({ ...ctx.connection.table.advertised(registry) }, ctx);
    const result: Record<string, unknown> = { supportedVersions: SUPPORTED_VERSIONS, capabilities };
    const instructions = registry.options.instructions;
    if (instructions !== undefined) result.instructions = instructions;
    return result;
  },
};
