/** @module upstreamTools(): another server's tools as ordinary mcpbin tools whose calls pass through as they are. */
import { tool } from "../tools/define.ts";
import type { Tool, ToolAnnotations, ToolContext, ToolIcon } from "../tools/types.ts";
import type { ClientTasks } from "./tasks.ts";
import { receivedResult } from "../shared/result.ts";
import type { JsonSchema } from "../schema/json-schema.ts";
import type { CallOptions, CallToolResult, JsonObject, McpClient, UpstreamTool } from "./client.ts";
import { META as META_KEYS } from "../protocol/meta.ts";
import { OutboundError } from "../server/outbound.ts";
import { safeName, SEPARATOR, withHash } from "./naming.ts";
import { relay, type RelayContext } from "./relay.ts";
import type { LoggingLevel } from "../protocol/logging.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import { logName } from "../runtime/log-name.ts";
import { receivedExtras, TOOL_FIELDS } from "../protocol/received.ts";
import type { AuthInfo } from "../shared/auth.ts";

/** How one upstream's URIs become ours in what its tools send (src/client/uri-rewrite.ts, bound to the upstream). */
export interface ToolUriRewrite {
  /** A tool's or result's `_meta` with its MCP Apps view links rewritten. */
  meta(meta: unknown): unknown;
  /** A content block with its `resource_link` or embedded resource URI rewritten. */
  block(block: unknown): unknown;
}

/**
 * How a passthrough tool reaches its upstream: a client's `callTool`, or the gateway's (restart, retry). `caller`
 * is the verified caller of the request (`ctx.auth`), which only an in-process upstream is told (mount()).
 */
export type UpstreamCall = (
  name: string,
  args: JsonObject,
  opts: CallOptions,
  caller?: AuthInfo,
) => Promise<CallToolResult>;

/** Options of {@link upstreamTools}. */
export interface UpstreamToolsOptions {
  /** Exposed names become `<prefix>__<tool>` (then mapped to `^[A-Za-z0-9_-]{1,64}$`); default the names as they are (mapped). */
  readonly prefix?: string;
  /** Only tools whose upstream names match one of these globs (`*`, `?`, `[…]`, `{a,b}`). */
  readonly include?: readonly string[];
  /** Tools whose upstream names match one of these globs are left out (after `include`). */
  readonly exclude?: readonly string[];
  /** Time limit per call, ms; default the client's. 0 = none (the server's own `timeoutMs` still applies). */
  readonly timeoutMs?: number;
}

/**
 * True when `name` passes the include/exclude globs (Bun.Glob syntax).
 * @param name - an upstream tool name.
 * @param include - globs of which one must match (none given: all pass).
 * @param exclude - globs of which none may match.
 */
export function passesFilters(name: string, include?: readonly string[], exclude?: readonly string[]): boolean {
  if (include && include.length > 0 && !include.some((g) => new Bun.Glob(g).match(name))) return false;
  return !(exclude ?? []).some((g) => new Bun.Glob(g).match(name));
}

/**
 * An upstream tool that only an MCP App's view calls (`_meta.ui.visibility` without `"model"`, MCP Apps
 * extension SEP-1865): linked to its view here too, so a client in front that did not declare the extension
 * neither lists nor calls it (as the upstream would treat that client). Other tools keep their `_meta.ui` as sent
 * and no link.
 */
function viewOnly(
  meta: Record<string, unknown> | undefined,
): { app: string; visibility: ("model" | "app")[] } | undefined {
  const ui = meta?.ui as { resourceUri?: unknown; visibility?: unknown } | undefined;
  if (typeof ui?.resourceUri !== "string" || !ui.resourceUri.startsWith("ui://") || !Array.isArray(ui.visibility))
    return undefined;
  const vis = ui.visibility as unknown[];
  if (vis.length === 0 || vis.includes("model") || !vis.every((x) => x === "app")) return undefined;
  return { app: ui.resourceUri, visibility: ["app"] };
}

/**
 * One upstream tool as an mcpbin tool: its definition differs only in `name` (title, description,
 * input and output schemas verbatim, annotations and icons with every key, `_meta` kept; `execution` as this
 * server can run it; every field no protocol version defines kept as {@link Tool.received}), each client
 * getting its version's projection, and its calls go to `call` with
 * the caller's signal (cancellation reaches the upstream as `notifications/cancelled` with the upstream's
 * id) and progress (a token of ours upstream; the client's own token on the way back). The result comes
 * back as the upstream sent it, projected onto the client's version; the upstream's serverInfo `_meta`
 * gives way to ours. A call that cannot reach the upstream fails as an isError result naming it.
 * @param def - the tool as the upstream listed it.
 * @param exposed - its name here (`^[A-Za-z0-9_-]{1,64}$`).
 * @param call - how calls reach the upstream.
 * @param timeoutMs - time limit per call (undefined: the caller's default).
 * @param rewrite - how the upstream's URIs become ours (a gateway's; none: as they are). The upstream's
 *   asks during a call (roots, sampling, elicitation) go to our client ({@link relay}).
 * @param tasks - the upstream's tasks (its client's): when it takes tasks, the tool may run as a task here
 *   (its taskSupport as the upstream lists it), and such a call is a task upstream too; otherwise a plain call.
 * @param scopes - the OAuth scopes the tool needs here (an in-process upstream's own, which the wire does not carry).
 * @returns the tool.
 * @throws ToolDefinitionError when the upstream's schemas are not usable JSON Schemas (the caller leaves such a tool out).
 */
export function passthroughTool(
  def: UpstreamTool,
  exposed: string,
  call: UpstreamCall,
  timeoutMs?: number,
  rewrite?: ToolUriRewrite,
  tasks?: () => ClientTasks | undefined,
  scopes?: readonly string[],
): Tool {
  const upstreamName = def.name;
  const meta = (rewrite && def._meta !== undefined ? rewrite.meta(def._meta) : def._meta) as
    Record<string, unknown> | undefined;
  const task = taskSupportOf(def, tasks?.());
  const t = tool({
    task,
    ...(scopes?.length ? { scopes: [...scopes] } : {}),
    name: exposed,
    title: typeof def.title === "string" ? def.title : undefined,
    description: typeof def.description === "string" ? def.description : "",
    inputSchema: (def.inputSchema ?? { type: "object" }) as JsonSchema,
    outputSchema: def.outputSchema as JsonSchema | undefined,
    verbatimSchemas: true,
    annotations: def.annotations as ToolAnnotations | undefined,
    icons: def.icons as ToolIcon[] | undefined,
    meta,
    ui: viewOnly(meta),
    run: async (args, ctx) => {
      let relayed = false;
      let r: CallToolResult;
      const upstream = ctx.taskId !== undefined ? tasks?.() : undefined;
      try {
        // Running as a task here, on an upstream that takes tasks: a task there too, cancelled with ours.
        if (upstream?.supported)
          r = (await upstreamTask(upstream, upstreamName, args as JsonObject, ctx)) as CallToolResult;
        else
          r = await relay(ctx as unknown as RelayContext, (onRequest, signal, unattributed, current) =>
            call(
              upstreamName,
              args as JsonObject,
              {
                signal,
                unattributed,
                onProgress: (p) => {
                  relayed = true;
                  ctx.progress(p.progress, p.total, p.message);
                },
                timeoutMs,
                onRequest,
                capabilities: (ctx as unknown as RelayContext).clientCapabilities as JsonObject | undefined,
                // Made for the client session in front: an ask or log message not tied to this call goes to it only
                // when no other session's call could have caused it.
                party: (ctx as unknown as RelayContext).connection,
                // Its log messages reach the client of the round being served, when it asked for their level (ctx.log
                // filters); between rounds there is no one to hear them, and the call takes none of another call's.
                onLog: (p) =>
                  current()?.log?.(
                    p.level as LoggingLevel,
                    p.data,
                    typeof p.logger === "string" ? p.logger : undefined,
                  ),
                listening: () => current() !== undefined,
                meta: { [META_KEYS.logLevel]: "debug" },
              },
              ctx.auth,
            ),
          );
      } catch (e) {
        // The upstream's protocol error, a timeout, a lost connection: the model reads what happened and where.
        if (!(e instanceof OutboundError)) throw e;
        // A capability our client lacks (2026-07-28 -32021): the client learns it as the upstream said it.
        if (e.rpc?.code === ErrorCode.MissingRequiredClientCapability && ctx.protocolVersion === MODERN_VERSION)
          throw new RpcError(e.rpc.code, e.rpc.message, e.rpc.data);
        return receivedResult({
          content: [{ type: "text", text: `Tool ${exposed} failed: ${e.message}` }],
          isError: true,
        });
      }
      // Progress relayed in the same turn as the result would leave in the same write as the response; the
      // SDK v1 client runs progress handlers a microtask late and drops those that come after the response
      // it settled in the same read. One turn of the event loop lets the progress lines go out first.
      if (relayed) await new Promise((resolve) => setImmediate(resolve));
      let meta = r._meta as JsonObject | undefined;
      if (meta && META_KEYS.serverInfo in meta) {
        const { [META_KEYS.serverInfo]: _, ...rest } = meta;
        meta = Object.keys(rest).length > 0 ? rest : undefined;
      }
      if (r.resultType !== undefined && r.resultType !== "complete") {
        return receivedResult({
          content: [
            {
              type: "text",
              text: `Tool ${exposed}: the upstream answered with resultType ${JSON.stringify(r.resultType)}, which is not a result`,
            },
          ],
          isError: true,
        });
      }
      if (rewrite) {
        const content = Array.isArray(r.content) ? r.content.map((b) => rewrite.block(b) as JsonObject) : r.content;
        return receivedResult({
          ...r,
          content,
          _meta: meta === undefined ? undefined : (rewrite.meta(meta) as JsonObject),
        });
      }
      return receivedResult({ ...r, _meta: meta });
    },
  }) as unknown as Tool & { received?: Readonly<Record<string, unknown>> };
  // Every other field of the definition is served again as it came.
  t.received = receivedExtras(def, TOOL_FIELDS);
  return t;
}

/**
 * Another server's tools, ready to serve beside your own (`serve({ tools: [...mine, ...await upstreamTools(gh, { prefix: "gh" })] })`).
 * Every page of `tools/list` is read once, now; see {@link passthroughTool} for what a call does.
 * @param client - a connected client ({@link import("./connect.ts").connect}).
 * @param opts - prefix, include/exclude globs, timeoutMs.
 * @returns one tool per upstream tool that passed the filters; a tool whose schemas cannot be used is
 *   left out with one line on stderr naming it.
 * @throws OutboundError when listing fails.
 */
export async function upstreamTools(client: McpClient, opts: UpstreamToolsOptions = {}): Promise<Tool[]> {
  const listed = await client.listTools();
  const tasks = () => client.tasks;
  const call: UpstreamCall = (name, args, o) => client.callTool(name, args, o);
  const out: Tool[] = [];
  const used = new Set<string>();
  for (const def of listed) {
    if (typeof def?.name !== "string" || !passesFilters(def.name, opts.include, opts.exclude)) continue;
    let name = safeName(opts.prefix === undefined ? def.name : `${opts.prefix}${SEPARATOR}${def.name}`);
    if (used.has(name)) name = withHash(name, def.name);
    used.add(name);
    try {
      out.push(passthroughTool(def, name, call, opts.timeoutMs, undefined, tasks));
    } catch (e) {
      process.stderr.write(
        `${logName()}: [${client.label}] tool ${JSON.stringify(def.name)} left out: ${(e as Error).message}\n`,
      );
    }
  }
  return out;
}

/**
 * Whether a passthrough tool runs as a task here: as the upstream says (2025-11-25 `execution.taskSupport`;
 * a 2026-07-28 upstream with the tasks extension decides per call, so "optional"), only when it takes tasks.
 */
function taskSupportOf(def: UpstreamTool, tasks: ClientTasks | undefined): "optional" | "required" | undefined {
  if (!tasks?.supported) return undefined;
  const s = (def.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  if (tasks.c.era === "modern") return "optional";
  return s === "optional" || s === "required" ? s : undefined;
}

/** One call as a task of the upstream's: created, its questions relayed to our client, cancelled when ours is, its result. */
async function upstreamTask(tasks: ClientTasks, name: string, args: JsonObject, ctx: ToolContext): Promise<JsonObject> {
  const made = await relay(ctx as unknown as RelayContext, (onRequest, signal) =>
    tasks.call(name, args, { signal, onRequest }),
  );
  if ("result" in made) return made.result;
  const id = made.task.taskId;
  const cancel = () => void tasks.cancel(id).catch(() => {});
  ctx.signal.addEventListener("abort", cancel, { once: true });
  try {
    return await relay(ctx as unknown as RelayContext, (onRequest, signal) => tasks.result(id, { onRequest, signal }));
  } finally {
    ctx.signal.removeEventListener("abort", cancel);
  }
}
