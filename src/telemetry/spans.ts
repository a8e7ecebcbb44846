/** @module One SERVER span per MCP message, per the OpenTelemetry MCP semantic conventions (loaded only when tracing is on). */
import type { Attributes, Context, Span, TextMapGetter, Tracer } from "@opentelemetry/api";
import { isCallerError, type Message, type Reply, type RequestId } from "../protocol/jsonrpc.ts";
import { META, metaOf } from "../protocol/meta.ts";
import type { CallResult } from "../protocol/project.ts";
import { SUPPORTED_VERSIONS } from "../protocol/versions.ts";
import { tracing, type CallOutcomeType, type MessageHandler, type TaskSpan, type TraceScope } from "./state.ts";

// `require`, not `import`: the bundler then takes the packages' CommonJS builds, whose own imports of
// Node built-ins stay lazy. ESM builds would hoist `zlib`, `stream`, `async_hooks`… into the start-up of
// every compiled binary, tracing on or off (measured: +16 ms cold start, +8 MB RSS).
const { context, createContextKey, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } =
  require("@opentelemetry/api") as typeof import("@opentelemetry/api");
const { W3CTraceContextPropagator } = require("@opentelemetry/core") as typeof import("@opentelemetry/core");

/** What the span of one message has learned while it ran (stored in its context). */
interface SpanRecord {
  readonly span: Span;
  toolError: boolean;
  invalidArguments: boolean;
  /** Set when the server ended the request itself (time limit, cancellation, shutdown, result over the limit). */
  outcome: CallOutcomeType | undefined;
}

const RECORD = createContextKey("mcpbin.mcp.server.span");
const propagator = new W3CTraceContextPropagator();
/** Reads `traceparent` / `tracestate` from `params._meta`; only string values count. */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    return typeof v === "string" ? v : undefined;
  },
};

/** The transport messages arrive over: `pipe` for stdio, `tcp` for Streamable HTTP (`network.transport`). */
export type NetworkTransport = "pipe" | "tcp";

/**
 * Turns tracing on with this tracer: from now on every message the dispatcher handles gets a SERVER
 * span (OpenTelemetry semantic conventions for MCP, "Server" span).
 * @param tracer - where spans go (the global proxy tracer, or a test provider's tracer).
 * @param transport - `network.transport` of every span; default `pipe` (stdio).
 */
export function enableTracing(tracer: Tracer, transport: NetworkTransport = "pipe"): void {
  const base: Attributes =
    transport === "tcp"
      ? { "network.transport": "tcp", "network.protocol.name": "http" }
      : { "network.transport": "pipe" };
  tracing.message = (msg, handle, extras, scope) => traceMessage(tracer, base, msg, handle, extras, scope);
  tracing.toolResult = noteToolResult;
  tracing.invalidArguments = noteInvalidArguments;
  tracing.round = noteRound;
  tracing.outcome = outcomeNoter;
  tracing.task = (taskId, tool) => taskSpan(tracer, taskId, tool);
  tracing.on = true;
}

/**
 * The W3C Trace Context parent in `params._meta.traceparent` / `tracestate` (MCP 2026-07-28
 * basic/index "OpenTelemetry trace context"; applied to every version). Malformed values are ignored.
 * @param params - the message's params.
 * @returns a context holding the remote parent span context, or the root context.
 */
export function parentFromMeta(params: unknown): Context {
  if (!params || typeof params !== "object" || Array.isArray(params)) return ROOT_CONTEXT;
  const meta = (params as Record<string, unknown>)._meta;
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, meta as Record<string, unknown>, metaGetter);
}

/**
 * The span name and start attributes of one message: `{mcp.method.name} {target}`, where the target
 * is what the capability owning the method names (the tools capability: the tool of a `tools/call`, when the
 * server has it; a tool name the server does not have is still recorded as `gen_ai.tool.name`, but kept out of
 * the span name to keep names low-cardinality). Arguments, `_meta` and everything else in params stay out.
 * @param scope - the connection (it names the target).
 * @param msg - the message.
 * @param base - transport attributes (`network.transport`, …).
 * @returns the span name and its start attributes.
 */
export function spanStart(
  scope: TraceScope,
  msg: Message,
  base: Attributes = { "network.transport": "pipe" },
): { name: string; attributes: Attributes } {
  const method = msg.method;
  const attributes: Attributes = { "mcp.method.name": method, ...base };
  if (msg.id !== undefined) attributes["jsonrpc.request.id"] = String(msg.id);
  let name = method;
  if (method === "tools/call") {
    attributes["gen_ai.operation.name"] = "execute_tool";
    const params = msg.params as Record<string, unknown> | null | undefined;
    const tool = params && typeof params === "object" ? params.name : undefined;
    if (typeof tool === "string") attributes["gen_ai.tool.name"] = tool;
  }
  const target = scope.spanTarget(method, msg.params);
  if (target !== undefined) name = `${method} ${target}`;
  return { name, attributes };
}

function traceMessage<X>(
  tracer: Tracer,
  base: Attributes,
  msg: Message,
  handle: MessageHandler<X>,
  extras: X,
  scope: TraceScope,
): Reply {
  const parent = parentFromMeta(msg.params);
  const { name, attributes } = spanStart(scope, msg, base);
  const ambient = trace.getSpanContext(context.active());
  const span = tracer.startSpan(
    name,
    { kind: SpanKind.SERVER, attributes, links: ambient ? [{ context: ambient }] : undefined },
    parent,
  );
  const record: SpanRecord = { span, toolError: false, invalidArguments: false, outcome: undefined };
  // A legacy HTTP session's id (Mcp-Session-Id); never on 2026-07-28 requests, which have no session.
  const sessionId = sessionIdOf(extras);
  if (sessionId !== undefined) span.setAttribute("mcp.session.id", sessionId);
  setCaller(span, extras);
  const ctx = trace.setSpan(parent, span).setValue(RECORD, record);
  let reply: Reply;
  try {
    reply = context.with(ctx, handle, undefined, msg, extras);
  } catch (e) {
    span.setAttribute("error.type", "_OTHER");
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    throw e;
  }
  const version = protocolVersion(scope, msg);
  if (version !== undefined) span.setAttribute("mcp.protocol.version", version);
  if (typeof reply === "string" || reply === undefined) {
    finish(record, msg.id, reply);
    return reply;
  }
  return reply.then(
    (line) => {
      finish(record, msg.id, line);
      return line;
    },
    (e: unknown) => {
      span.setAttribute("error.type", "_OTHER");
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw e;
    },
  );
}

/** The version in force for a message: a supported `_meta` claim (2026-07-28 era), else the negotiated one. */
function protocolVersion(scope: TraceScope, msg: Message): string | undefined {
  const claim = metaOf(msg.params)?.[META.protocolVersion];
  if (typeof claim === "string" && SUPPORTED_VERSIONS.includes(claim)) return claim;
  return scope.version;
}

/** Sets the outcome attributes and status from the response line, then ends the span. */
function finish(record: SpanRecord, id: RequestId | undefined, line: string | undefined): void {
  const span = record.span;
  if (record.outcome !== undefined) {
    // The server ended the request itself. A client's cancellation is not the server's failure (status
    // stays UNSET, as gRPC's CANCELLED on a server span); a time limit, a shutdown or an oversized result is.
    span.setAttribute("error.type", record.outcome);
    if (record.outcome !== "cancelled") span.setStatus({ code: SpanStatusCode.ERROR });
    if (line !== undefined && id !== undefined) {
      const code = errorCode(id, line);
      if (code !== undefined) span.setAttribute("rpc.response.status_code", String(code));
    }
  } else if (line !== undefined && id !== undefined) {
    const code = errorCode(id, line);
    if (code !== undefined) {
      const text = String(code);
      span.setAttribute("error.type", text);
      span.setAttribute("rpc.response.status_code", text);
      if (!isCallerError(code)) span.setStatus({ code: SpanStatusCode.ERROR });
    } else if (record.toolError) {
      span.setAttribute("error.type", "tool_error");
      if (!record.invalidArguments) span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}

/**
 * The JSON-RPC error code of a response line, or undefined for a result. A line that starts the way
 * `resultLine` writes results is a result without parsing it (results can be megabytes); anything
 * else is parsed.
 */
function errorCode(id: RequestId, line: string): number | undefined {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`;
  if (line.startsWith(head)) {
    if (line.startsWith('"result":', head.length)) return undefined;
    const m = /^"error":\{"code":(-?\d+)/.exec(line.slice(head.length, head.length + 40));
    if (m) return Number(m[1]);
  }
  try {
    const parsed = JSON.parse(line) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === "number" ? parsed.error.code : undefined;
  } catch {
    return undefined;
  }
}

function noteToolResult(result: CallResult): void {
  if (result.isError !== true) return;
  const record = context.active().getValue(RECORD) as SpanRecord | undefined;
  if (record) record.toolError = true;
}

function noteInvalidArguments(): void {
  const record = context.active().getValue(RECORD) as SpanRecord | undefined;
  if (record) record.invalidArguments = true;
}

function outcomeNoter(): ((t: CallOutcomeType) => void) | undefined {
  const record = context.active().getValue(RECORD) as SpanRecord | undefined;
  if (!record) return undefined;
  return (t) => {
    record.outcome ??= t;
  };
}

/** The legacy HTTP session id in a transport's extras (`{ session: { id } }`), if any. */
function sessionIdOf(extras: unknown): string | undefined {
  const id = (extras as { session?: { id?: unknown } } | undefined)?.session?.id;
  return typeof id === "string" ? id : undefined;
}

/** The OAuth caller (http.auth) on the span: its subject (`user.id`) and client id, never the token. */
function setCaller(span: { setAttribute(k: string, v: string): unknown }, extras: unknown): void {
  const auth = (extras as { auth?: { subject?: unknown; clientId?: unknown } } | undefined)?.auth;
  if (typeof auth?.subject === "string") span.setAttribute("user.id", auth.subject);
  if (typeof auth?.clientId === "string") span.setAttribute("mcpbin.auth.client_id", auth.clientId);
}

function noteRound(callId: string, round: number): void {
  const record = context.active().getValue(RECORD) as SpanRecord | undefined;
  if (!record) return;
  record.span.setAttribute("mcpbin.call.id", callId);
  record.span.setAttribute("mcpbin.call.round", round);
}

/**
 * The span of a task's run (INTERNAL, `task <tool>`), a child of the creating call's span, which gets
 * `mcpbin.task.id`; the run's span carries the id, the tool, and at its end `mcpbin.task.status`.
 */
function taskSpan(tracer: Tracer, taskId: string, tool: string): TaskSpan | undefined {
  const active = context.active();
  const record = active.getValue(RECORD) as SpanRecord | undefined;
  if (!record) return undefined;
  record.span.setAttribute("mcpbin.task.id", taskId);
  const attributes: Attributes = {
    "mcpbin.task.id": taskId,
    "gen_ai.tool.name": tool,
    "gen_ai.operation.name": "execute_tool",
  };
  const span = tracer.startSpan(`task ${tool}`, { kind: SpanKind.INTERNAL, attributes }, active);
  const ctx = trace.setSpan(active, span);
  return {
    run: (fn) => context.with(ctx, fn),
    end(status) {
      span.setAttribute("mcpbin.task.status", status);
      if (status === "failed" || status === "cancelled") {
        span.setAttribute("error.type", status === "failed" ? "task_failed" : "cancelled");
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
