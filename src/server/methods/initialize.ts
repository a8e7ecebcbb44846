/** @module initialize (legacy era): negotiates the session's version and says who the server is (MCP basic/lifecycle). */
import * as v from "valibot";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { FEATURES, negotiateLegacy } from "../../protocol/versions.ts";
import { withNames, type RequestContext } from "../context.ts";
import type { MethodSpec } from "../method.ts";
import { projectCapabilities } from "../../protocol/project-content.ts";
import { projectRegistered } from "../register.ts";
import { uiNegotiated, withUiExtension } from "../ui.ts";
import { withSkillsExtension } from "../../skills/methods.ts";

const NEEDS = "Invalid params: initialize needs params {protocolVersion, capabilities, clientInfo}";
const VERSION = 'Invalid params: initialize: "protocolVersion" must be a non-empty string (e.g. "2025-11-25")';
const CAPS = 'Invalid params: initialize: "capabilities" must be an object ({} for none)';
// Bad params are -32602 and leave the session uninitialized (MCP basic/lifecycle: InitializeRequest).
const params = v.looseObject({ protocolVersion: v.pipe(v.string(VERSION), v.nonEmpty(VERSION)), capabilities: v.optional(v.looseObject({}, CAPS)) }, NEEDS);

/** The `initialize` entry; the capabilities are the ones the connection's table advertises for this server. */
export const initialize: MethodSpec<Record<string, unknown>, Record<string, unknown>> = {
  name: "initialize",
  eras: ["legacy"],
  beforeInitialize: true,
  params,
  handle(p, ctx: RequestContext) {
    const conn = ctx.connection;
    if (conn.version !== undefined) {
      throw new RpcError(ErrorCode.InvalidRequest, `Invalid Request: the session is already initialized at ${conn.version}; start a new process to renegotiate`);
    }
    const version = negotiateLegacy(p.protocolVersion);
    const f = FEATURES.get(version)!;
    conn.version = version;
    const caps = p.capabilities;
    const info = p.clientInfo;
    const clientCaps = caps !== null && typeof caps === "object" && !Array.isArray(caps) ? (caps as Record<string, unknown>) : {};
    conn.client = info !== null && typeof info === "object" && !Array.isArray(info) ? withNames(info as Record<string, unknown>, clientCaps) : { capabilities: clientCaps };
    const registry = conn.registry;
    let capabilities = conn.table.advertised(registry);
    // A live tool set (createServer's listChanged, or changed already): this session hears of changes.
    if (registry.listChanged && capabilities.tools !== undefined) {
      capabilities = { ...capabilities, tools: { ...capabilities.tools, listChanged: true } };
      registry.watch(conn);
    }
    const result: Record<string, unknown> = { protocolVersion: version, capabilities: projectRegistered(withSkillsExtension(withUiExtension(projectCapabilities(capabilities, f), ctx, uiNegotiated(ctx)), (registry as { skills?: import("../../skills/skill-set.ts").SkillSet }).skills), ctx), serverInfo: registry.serverInfo(f) };
    // A resource list that can change is announced to the session (notifications/resources/list_changed).
    if (registry.content.listChanges) conn.subscriptions.listChanges();
    if (registry.content.promptListChanges) conn.subscriptions.promptChanges();
    const instructions = registry.options.instructions;
    if (instructions !== undefined && f.instructions) result.instructions = instructions;
    return result;
  },
};
