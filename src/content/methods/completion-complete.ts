/** @module completion/complete: values for a prompt argument or a template variable, at most 100 (MCP server/utilities/completion). */
import { logLine } from "../../runtime/log-name.ts";
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { completerOf, completionOf, MAX_COMPLETIONS } from "../completion.ts";
import { directContext, thrownMessage } from "../common.ts";
import type { MethodSpec } from "../../server/method.ts";
import { lazySchema } from "../../runtime/once.ts";

/** The checked params of a `completion/complete`. */
export interface CompleteParams {
  readonly ref: { readonly type: string; readonly uri?: string; readonly name?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Record<string, string> };
}

const params = lazySchema(() =>
  wireObject(
    {
      ref: wireObject(
        {
          type: v.picklist(
            ["ref/prompt", "ref/resource"],
            'Invalid params: ref.type must be "ref/prompt" or "ref/resource"',
          ),
        },
        "Invalid params: completion/complete needs ref {type, name | uri}",
      ),
      argument: wireObject(
        { name: v.string(), value: v.string() },
        "Invalid params: completion/complete needs argument {name, value}",
      ),
      context: v.optional(
        wireObject(
          {
            arguments: v.optional(
              v.record(v.string(), v.string(), "Invalid params: context.arguments must map names to strings"),
            ),
          },
          "Invalid params: context must be an object",
        ),
      ),
    },
    "Invalid params: completion/complete needs params {ref, argument}",
  ),
) as v.GenericSchema<unknown, CompleteParams>;

const EMPTY = { completion: { values: [] } };

/** The `completion/complete` entry: an unknown prompt or template is -32602; an argument without a completer completes to nothing. */
export const completionComplete: MethodSpec<CompleteParams, Record<string, unknown>> = {
  name: "completion/complete",
  eras: ["legacy", "modern"],
  capability: "completions",
  waitsForUpstreams: true,
  params,
  handle(p, ctx) {
    const content = ctx.connection.registry.content;
    const fn = completerOf(content, p.ref, p.argument.name);
    if (fn === null) {
      // Another server's prompt or template (an upstream's): its completion as it sent it.
      const dctx = directContext({
        signal: ctx.signal,
        requestId: ctx.requestId,
        protocolVersion: ctx.protocolVersion,
      });
      for (const x of content.providers) {
        if (!x.serves.completions) continue;
        const pending = x.complete(p, dctx);
        if (pending) {
          return pending.then(
            (c) => ({ completion: c.values.length > MAX_COMPLETIONS ? completionOf(c.values) : c }),
            (e: unknown) => {
              throw e instanceof RpcError
                ? e
                : new RpcError(ErrorCode.InternalError, `Completion of ${p.argument.name} failed: ${thrownMessage(e)}`);
            },
          );
        }
      }
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: ${p.ref.type === "ref/prompt" ? `unknown prompt ${JSON.stringify(p.ref.name)}` : `no resource template ${JSON.stringify(p.ref.uri)}`}`,
      );
    }
    if (fn === undefined) return EMPTY;
    return fn(p.argument.value, {
      ...directContext({ signal: ctx.signal, requestId: ctx.requestId, protocolVersion: ctx.protocolVersion }),
      arguments: p.context?.arguments ?? {},
    })
      .then((values) => ({ completion: completionOf(values) }))
      .then(undefined, (e: unknown) => {
        logLine(`completing ${p.argument.name} threw: ${(e as Error)?.stack ?? e}`);
        throw new RpcError(ErrorCode.InternalError, `Completion of ${p.argument.name} failed: ${thrownMessage(e)}`);
      });
  },
};
