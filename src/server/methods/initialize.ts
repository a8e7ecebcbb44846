/** @module initialize (legacy era): negotiates the session's version and says who the server is (MCP basic/lifecycle). */
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { FEATURES, negotiateLegacy } from "../../protocol/versions.ts";
import { withNames, type RequestContext } from "../context.ts";
import type { MethodSpec } from "../method.ts";
import { projectCapabilities } from "../../protocol/project.ts";
import { initializedRegistered, projectRegistered } from "../register.ts";

const NEEDS = "Invalid params: initialize needs params {protocolVersion, capabilities, clientInfo}";
const VERSION = 'Invalid params: initialize: "protocolVersion" must be a non-empty string (e.g. "2025-11-25")';
const CAPS = 'Invalid params: initialize: "capabilities" must be an object ({} for none)';
// Bad params are -32602 and leave the session uninitialized (MCP basic/lifecycle: InitializeRequest).
const params = wireObject(
  { protocolVersion: v.pipe(v.string(VERSION), v.nonEmpty(VERSION)), capabilities: v.optional(wireObject({}, CAPS)) },
  NEEDS,
);

/** The `initialize` entry; the capabilities are the ones the connection's table advertises for this server. */
export const initialize: MethodSpec<Record<string, unknown>, Record<string, unknown>> = {
  name: "initialize",
  eras: ["legacy"],
  beforeInitialize: true,
  params,
  handle(p, ctx: RequestContext) {
    const conn = ctx.connection;
    if (conn.version !== undefined) {
      throw new RpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: the session is already initialized at ${conn.version}; start a new process to renegotiate`,
      );
    }
    const version = negotiateLegacy(p.protocolVersion);
    const f = FEATURES.get(version)!;
    conn.version = version;
    const caps = p.capabilities;
    const info = p.clientInfo;
    const clientCaps =
      caps !== null && typeof caps === "object" && !Array.isArray(caps) ? (caps as Record<string, unknown>) : {};
    conn.client =
      info !== null && typeof info === "object" && !Array.isArray(info)
        ? withNames(info as Record<string, unknown>, clientCaps)
        : { capabilities: clientCaps };
    const registry = conn.registry;
    // The table's capabilities for the version, then as each registered capability shapes them (src/server/register.ts).
    const capabilities = projectRegistered(projectCapabilities(conn.table.advertised(registry), f), ctx);
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities,
      serverInfo: registry.serverInfo(f),
    };
    initializedRegistered(ctx, capabilities);
    const instructions = registry.options.instructions;
    if (instructions !== undefined && f.instructions) result.instructions = instructions;
    return result;
  },
};
