/** @module tools/call: looks the tool up, checks its arguments, runs it and shapes what it returns (MCP server/tools). */
import { logLine } from "../../runtime/log-name.ts";
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { callResultLine, type CallResult } from "../../protocol/project.ts";
import { jsonValidationReady, loadAjv, parseArguments, usesJsonSchemaValidation } from "../validate.ts";
import { outputOf } from "../schemas.ts";
import type { Tool } from "../types.ts";
import { tracing } from "../../telemetry/state.ts";
import { errorResult, invalidArgumentsText, shapeResult, thrownText } from "../call.ts";
import { overLimit } from "../../server/calls.ts";
import type { RequestContext } from "../../server/context.ts";
import type { MethodSpec } from "../../server/method.ts";
import { THROWN } from "../mask-errors.ts";
import { beginRound, InputRequired, inputRequiredLine, raceRound, rethrowWire } from "../../ask/rounds.ts";
import { requestFeatures } from "../../server/register.ts";
import { isAppOnly } from "../../apps/tool-ui.ts";
import { missingScopes } from "../../shared/auth.ts";

/** The checked params of a `tools/call`. */
export interface ToolsCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | null;
  /** 2026-07-28 retry fields (basic/patterns/mrtr), checked by modernAsker. */
  readonly requestState?: unknown;
  readonly inputResponses?: unknown;
}

/** What a call ends with: a result, or (2026-07-28) a round that needs input. */
type CallOutcome = CallResult | InputRequired;

const isArgs = (a: unknown) => a === undefined || a === null || (typeof a === "object" && !Array.isArray(a));
const params = wireObject(
  {
    name: v.string('Invalid params: "name" must be a string'),
    arguments: v.optional(
      v.custom<Record<string, unknown> | null>(isArgs, 'Invalid params: "arguments" must be an object'),
    ),
  },
  "Invalid params: tools/call needs params {name, arguments}",
) as v.GenericSchema<unknown, ToolsCallParams>;

/** The `tools/call` entry. */
export const toolsCall: MethodSpec<ToolsCallParams, CallOutcome> = {
  name: "tools/call",
  eras: ["legacy", "modern"],
  capability: "tools",
  waitsForUpstreams: true,
  params,
  // The common call, checked without valibot's datasets: what the schema would pass unchanged.
  accepts: (p) =>
    p !== null &&
    typeof p === "object" &&
    typeof (p as ToolsCallParams).name === "string" &&
    isArgs((p as ToolsCallParams).arguments) &&
    !Array.isArray(p)
      ? (p as ToolsCallParams)
      : undefined,
  handle(p, ctx) {
    const t = ctx.connection.registry.tools.get(p.name);
    // A tool only an app's view may call does not exist for a client without the MCP Apps extension.
    if (!t || (isAppOnly(t.ui) && !requestFeatures(ctx).ui)) {
      const note = t ? undefined : ctx.connection.registry.unknownToolNote?.(p.name);
      throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${p.name}${note ? ` (${note})` : ""}`);
    }
    const missing = missingScopes(ctx.auth, t.definition.scopes);
    // Over HTTP the transport answered 403 (step-up) already, unless http.auth.scopeFailure is "result".
    if (missing.length > 0)
      return errorResult(
        `Tool ${t.name} needs the OAuth scopes ${missing.join(" ")}, which this token was not granted; sign in again asking for them`,
      );
    const args = p.arguments ?? {};
    // 2026-07-28: this round's asks are answered from the verified requestState and inputResponses (-32602 when bad).
    if (ctx.era === "modern") beginRound(ctx, { method: "tools/call", name: p.name, args }, p);
    // A tool with a raw JSON Schema validates with Ajv, which loads asynchronously (started by tool()),
    // or with the validators an executable embeds (compiled at build time).
    if (usesJsonSchemaValidation(t) && !jsonValidationReady(t)) {
      return loadAjv().then(
        () => runTool(t, args, ctx),
        (e: unknown) =>
          errorResult(
            `Tool ${t.name} cannot check its arguments: loading the JSON Schema validator failed: ${(e as Error)?.message ?? e}`,
          ),
      );
    }
    return runTool(t, args, ctx);
  },
  line(id, r, ctx) {
    // No cache hints on input_required (MCP 2026-07-28 server/utilities/caching: complete results only).
    if (r instanceof InputRequired) return inputRequiredLine(id, r, ctx);
    if (tracing.on) tracing.toolResult(r);
    const registry = ctx.connection.registry;
    const f = requestFeatures(ctx);
    const max = registry.options.maxResultBytes;
    const line = callResultLine(id, r, f, registry.modernMeta, registry.modernMetaJson);
    const bytes = overLimit(line, max);
    if (bytes === undefined) return line;
    if (tracing.on) tracing.outcome()?.("result_too_large");
    return callResultLine(
      id,
      errorResult(
        `The result of this call is ${bytes} bytes, over the server's limit of ${max} bytes (maxResultBytes)`,
      ),
      f,
      registry.modernMeta,
      registry.modernMetaJson,
    );
  },
  timeoutMs: (p, ctx) =>
    ctx.connection.registry.tools.get(p.name)?.definition.timeoutMs ?? ctx.connection.registry.options.timeoutMs,
  timedOut: (ms, p) => errorResult(`Tool ${p.name} timed out after ${ms} ms`),
  aborted: (reason) => errorResult(reason),
};

/** Stands for a result that came after the call was answered: never sent. */
const LATE: CallResult = Object.freeze({ content: [] }) as unknown as CallResult;

/** Parses the arguments, runs the tool, shapes its value; a failure of the tool is an isError result. */
function runTool(t: Tool, args: object, ctx: RequestContext): CallOutcome | PromiseLike<CallOutcome> {
  let parsed: ReturnType<typeof parseArguments>;
  try {
    parsed = parseArguments(t, args);
    // A schema given as a function is built on first use: an output schema too, before the tool runs.
    if (typeof t.definition.output === "function") outputOf(t);
  } catch (e) {
    // Only a schema function can throw here (ToolDefinitionError), e.g. one that depends on the environment.
    return errorResult(`Tool ${t.name} cannot run: ${(e as Error)?.message ?? e}`);
  }
  if (!parsed.ok) {
    if (tracing.on) tracing.invalidArguments();
    return errorResult(invalidArgumentsText(t, parsed.issues));
  }
  // JSON.parse reads a number beyond a double's range (1e400) as ±Infinity, which v.number() takes.
  const overflow = nonFinitePath(parsed.value, "");
  if (overflow !== undefined) {
    if (tracing.on) tracing.invalidArguments();
    return errorResult(
      invalidArgumentsText(t, [
        `${overflow || "(arguments)"}: Invalid number: too large for a 64-bit float (it reads as Infinity); send a finite number`,
      ]),
    );
  }
  let value: unknown;
  try {
    value = t.definition.run(parsed.value as never, ctx);
  } catch (e) {
    return thrown(t, e, ctx);
  }
  if (
    value instanceof Promise ||
    (typeof value === "object" && value !== null && typeof (value as PromiseLike<unknown>).then === "function")
  ) {
    const json = ctx.connection.registry.options.json;
    // 2026-07-28: the round ends at the first unanswered ask (InputRequired), whatever the tool does next.
    const pending = raceRound(ctx, value as PromiseLike<unknown>);
    // Once the call has been answered otherwise (timed out, cancelled, aborted), what the tool does later is not looked at.
    return pending.then(
      (x) => {
        if (ctx.done) return LATE;
        if (x instanceof InputRequired) return x;
        return shape(t, x, json);
      },
      (e: unknown) => (ctx.done ? LATE : thrown(t, e, ctx)),
    );
  }
  return shape(t, value, ctx.connection.registry.options.json);
}

/**
 * The path of the first non-finite number in parsed JSON arguments (`a.b[2]`), or undefined. Only an
 * out-of-range literal such as `1e400` gives one: JSON has no NaN or Infinity.
 */
function nonFinitePath(value: unknown, path: string): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFinitePath(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const k in value) {
    const found = nonFinitePath((value as Record<string, unknown>)[k], path ? `${path}.${k}` : k);
    if (found !== undefined) return found;
  }
  return undefined;
}

function shape(t: Tool, value: unknown, json: Parameters<typeof shapeResult>[2]): CallResult {
  try {
    return shapeResult(t, value, json);
  } catch (e) {
    return thrown(t, e);
  }
}

function thrown(t: Tool, e: unknown, ctx?: RequestContext): CallResult {
  // A round that failed on the wire (a bad inputResponses value), or -32021 at 2026-07-28.
  if (ctx) rethrowWire(e, ctx);
  let detail: string;
  try {
    detail = String((e as Error)?.stack ?? e);
  } catch {
    detail = "(a value that cannot be printed)";
  }
  logLine(`tool ${t.name} threw: ${detail}`);
  const r = errorResult(thrownText(t, e));
  // What was thrown, for maskErrors() (src/tools/mask-errors.ts); not enumerable, never sent.
  Object.defineProperty(r, THROWN, { value: e ?? null });
  return r;
}
