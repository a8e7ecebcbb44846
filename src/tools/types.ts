/** @module The shapes of a tool: what `tool()` takes, what it makes, and what `run` receives. */
import type * as v from "valibot";
import type { JsonSchema } from "../schema/json-schema.ts";
import type { StandardOutput, StandardSchemaV1 } from "../schema/standard.ts";
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { LoggingLevel } from "../protocol/logging.ts";
import type { Asker } from "../ask/types.ts";
import type { ToolUi, ToolUiOption } from "../apps/tool-ui.ts";
import type { TOOL_BRAND } from "../runtime/contract.ts";
import type { AuthInfo } from "../shared/auth.ts";
import type { ToolIcon } from "../shared/icon.ts";
import type { ServerHandle } from "../shared/server-handle.ts";

declare module "../shared/server-handle.ts" {
  /**
   * The server a tool runs in, as `ctx.server` (createServer()'s McpServer, which extends it). Its tool set
   * is live: {@link addTool}, {@link removeTool} and {@link enableTool} take effect for the next `tools/list`
   * and `tools/call` of every connection, and legacy sessions that were told `listChanged` get
   * `notifications/tools/list_changed`.
   */
  interface ServerHandle {
    /** The tools served now (enabled ones), by name. */
    readonly tools: ReadonlyMap<string, Tool>;
    /**
     * Adds a tool, or replaces the tool of that name.
     * @throws ToolDefinitionError when `t` is not made by tool().
     */
    addTool(t: Tool): void;
    /** Removes a tool (enabled or not); false when there was none of that name. */
    removeTool(name: string): boolean;
    /**
     * Enables (default) or disables a tool: a disabled tool is neither listed nor callable (`Unknown tool`).
     * @throws ToolDefinitionError when the server has no tool of that name.
     */
    enableTool(name: string, enabled?: boolean): void;
  }
}

export type { ServerHandle };

declare module "../server/middleware-api.ts" {
  /** A middleware reads a tool's context, with `client` and `server` always there. */
  interface MiddlewareContext extends ToolContext {}
}

/**
 * What a tool's `run` receives besides its arguments, including the ways to ask the client
 * ({@link Asker}: `elicit`, `sample`, `roots`, `clientCapabilities`; docs/asking.md).
 */
export interface ToolContext extends Asker {
  /** The caller (undefined when called directly): legacy from `initialize`, 2026-07-28 from the request's `_meta`. */
  readonly client?: {
    readonly name?: string;
    readonly version?: string;
    readonly info?: Readonly<Record<string, unknown>>;
    readonly capabilities: Readonly<Record<string, unknown>>;
  };
  /** The legacy HTTP session (Mcp-Session-Id), when there is one. */
  readonly session?: { readonly id: string };
  /** The HTTP request's headers, over HTTP only. */
  readonly http?: { readonly headers: Headers };
  /**
   * The caller that admitted the request, when there was one: `{ token }` for the static `http.token`;
   * with `http.auth` (OAuth) also `subject`, `clientId`, `scopes`, `issuer`, `claims` (docs/auth.md).
   */
  readonly auth?: AuthInfo;
  /** The server (undefined when called directly). */
  readonly server?: ServerHandle;
  /** Aborted when the client cancels the request, the call times out, or the server shuts down. */
  readonly signal: AbortSignal;
  /**
   * Reports progress (MCP basic/utilities/progress): sends `notifications/progress` when the request
   * carried a `progressToken`, otherwise does nothing. `progress` should increase with each call.
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Sends a log message (MCP server/utilities/logging, `notifications/message`) when the client asked
   * for this level (legacy `logging/setLevel`, 2026-07-28 the request's `_meta` logLevel); otherwise,
   * and when called directly, does nothing.
   * @param level - `debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert` or `emergency`.
   * @param data - any JSON value.
   * @param logger - the logger's name, optional.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** The JSON-RPC id of the request being served (undefined when called directly). */
  readonly requestId?: RequestId;
  /** The protocol version in force for this request (undefined when called directly). */
  readonly protocolVersion?: string;
  /**
   * Tasks (MCP 2025-11-25 basic/utilities/tasks; 2026-07-28 extension io.modelcontextprotocol/tasks): the id
   * of the task this call runs as, when it runs as one (undefined otherwise).
   */
  readonly taskId?: string;
  /**
   * For a tool defined with `deferTask: true`: from here on the call runs as a task, and the client is
   * answered with the created task now (2026-07-28: the asks made before it were input_required rounds of the
   * call itself). Resolves once the task is stored. A no-op when the call is already a task or cannot become one.
   */
  startTask?(): Promise<void>;
}

/** Hints about a tool's behaviour (MCP ToolAnnotations); untrusted by clients. Sent from 2025-03-26. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** An icon for display (MCP Icon, 2025-11-25+): its shape is shared with resources and prompts (src/shared/icon.ts). */
export type { ToolIcon };

/** A valibot schema, or any Standard Schema v1 value (zod 4, arktype, …). */
/** Whether a tool's calls may run as tasks (MCP 2025-11-25 `execution.taskSupport`). */
export type TaskSupport = "forbidden" | "optional" | "required";

export type AnySchema = v.GenericSchema | StandardSchemaV1;
/** The type `run` receives for an input schema `I`. */
export type ArgsOf<I> = I extends v.GenericSchema
  ? v.InferOutput<I>
  : I extends StandardSchemaV1
    ? StandardOutput<I>
    : Record<string, unknown>;

/**
 * What `tool()` takes. Give `input` (a valibot schema, or any Standard Schema v1 such as zod 4 or arktype)
 * or `inputSchema` (raw JSON Schema), or neither for no arguments.
 */
export interface ToolDefinition<I extends AnySchema | undefined = undefined, R = unknown> {
  /** `^[A-Za-z0-9_-]{1,64}$`: the set every major client accepts. */
  readonly name: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description: string;
  /**
   * A valibot object schema; converted to JSON Schema once, and used to parse arguments before `run`.
   * Any other Standard Schema v1 (zod 4's `z.object`, arktype's `type({...})`) works the same way: it
   * validates through `~standard.validate` and is converted by its library's own converter
   * (`~standard.jsonSchema`, zod's `toJSONSchema`, arktype's `toJsonSchema`); a synchronous one (an async
   * refinement gives an isError result when called by a client).
   * Or a function returning it, called once, when first needed: in an executable built by
   * `mcpbin build` (its JSON Schema recorded at build time) that is the tool's first call, so a server
   * with hundreds of tools does not build their schemas at start (docs/benchmarks.md). The function
   * must return the same schema on every run (not one that depends on the environment).
   */
  readonly input?: I | (() => I);
  /** A complete JSON Schema (object root) sent unchanged; arguments are validated against it. */
  readonly inputSchema?: JsonSchema;
  /** A valibot (or other Standard Schema) schema of the structured result; the return value becomes `structuredContent`. Or a function returning it, as for `input`. */
  readonly output?: AnySchema | (() => AnySchema);
  /** A raw JSON Schema of the structured result. */
  readonly outputSchema?: JsonSchema;
  /**
   * Send the raw `inputSchema`/`outputSchema` exactly as written (`$schema`, `$defs`, `$anchor` kept)
   * instead of normalized; for suites and clients that want them verbatim. They are still checked
   * at definition, and arguments and results are validated the same way. Default false.
   */
  readonly verbatimSchemas?: boolean;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly ToolIcon[];
  /** Sent as the tool's `_meta` (2025-06-18+). */
  readonly meta?: Record<string, unknown>;
  /**
   * Whether a call may run as a task (MCP 2025-11-25 `execution.taskSupport`; the 2026-07-28 tasks extension):
   * `"forbidden"` (the default) never, `"optional"` when the client asks for one (2025-11-25) or declares the
   * extension (2026-07-28), `"required"` always (a call that cannot be a task gets an error). Needs nothing
   * else: `serve({ tasks })` picks the store (memory by default). See docs/tasks.md.
   */
  readonly task?: TaskSupport;
  /**
   * 2026-07-28: run the call as a plain call (its asks are input_required rounds of the call) until `run`
   * calls `ctx.startTask()`; only then is the task created. Default false: the task is created before `run` starts.
   */
  readonly deferTask?: boolean;
  /**
   * Per-tool time limit per call, in milliseconds (at most 2147483647); overrides the server's
   * `timeoutMs` either way. 0 = no limit for this tool, even under a server-wide limit.
   */
  readonly timeoutMs?: number;
  /**
   * OAuth scopes a caller needs for this tool (docs/auth.md): a caller verified by `http.auth` without
   * them does not see it in `tools/list`, and its call gets a 403 step-up challenge (or an isError result
   * with `http.auth.scopeFailure: "result"`). Callers over stdio or with the static token are not scope-checked.
   */
  readonly scopes?: readonly string[];
  /**
   * The MCP App the tool renders in (`app()`), or `{ app, visibility }`; `visibility: ["app"]` makes a
   * tool only the view calls (MCP Apps `_meta.ui`, extension io.modelcontextprotocol/ui).
   */
  readonly ui?: ToolUiOption;
  /** The tool itself; sync or async. Return an ordinary value, or `toolResult(...)`. */
  run(args: ArgsOf<I>, ctx: ToolContext): R | Promise<R>;
}

/**
 * Every key `tool()` takes, in {@link ToolDefinition}'s order; any other is refused at definition. A new key
 * goes into both (the compiler checks that none of ToolDefinition's is missing here).
 */
export const TOOL_KEYS = [
  "name",
  "title",
  "description",
  "input",
  "inputSchema",
  "output",
  "outputSchema",
  "verbatimSchemas",
  "annotations",
  "icons",
  "meta",
  "task",
  "deferTask",
  "timeoutMs",
  "ui",
  "scopes",
  "run",
] as const satisfies readonly (keyof ToolDefinition)[];
const TOOL_KEYS_COMPLETE: [Exclude<keyof ToolDefinition, (typeof TOOL_KEYS)[number]>] extends [never] ? true : never =
  true;
void TOOL_KEYS_COMPLETE;

/** Where a tool came from (set by the loader; never sent to clients). */
export interface ToolSource {
  readonly dir: string;
  readonly file: string;
}

/** A defined tool: an ordinary async function plus its definition. */
export interface Tool<I extends AnySchema | undefined = AnySchema | undefined, R = unknown> {
  /**
   * Validates `args` like the server does and returns what `run` returns.
   * @throws ToolArgumentsError when the arguments do not match the input schema.
   */
  (args?: unknown, ctx?: Partial<ToolContext>): Promise<R>;
  readonly [TOOL_BRAND]: true;
  readonly name: string;
  readonly definition: ToolDefinition<I, R>;
  /** The JSON Schema sent as `inputSchema`. */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema sent as `outputSchema`, when the tool declares one. */
  readonly outputSchema?: JsonSchema;
  /** Provenance, set by the loader. */
  source?: ToolSource;
  /** The MCP App link from the `ui` option, resolved. */
  readonly ui?: ToolUi;
  /**
   * Set for a tool another server listed (passthroughTool, upstreamTools, `mcpbin proxy`): its definition's
   * fields that no protocol version defines, sent to every client as they came (possibly none). Its
   * annotations and icons are then sent with every key they came with.
   */
  readonly received?: Readonly<Record<string, unknown>>;
}

/** Parsed arguments, or the problems as `path: message` lines. */
export type ParsedArguments = { ok: true; value: unknown } | { ok: false; issues: string[] };

declare module "../shared/server-options.ts" {
  /** The key of the server options that holds the tools (src/shared/server-options.ts). */
  interface ServerOptions {
    /** The tools; nested arrays are flattened. */
    readonly tools: readonly (Tool | readonly Tool[])[];
  }
}
