/** @module prompts/get: a prompt's messages for string arguments, projected per version (MCP server/prompts). */
import { logLine } from "../../runtime/log-name.ts";
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { projectPromptResult } from "../project.ts";
import { ContentDefinitionError, thrownMessage } from "../common.ts";
import { parsePromptArguments, PromptArgumentsError, toPromptResult, type PromptResult } from "../prompt.ts";
import type { MethodSpec } from "../../server/method.ts";
import { lineOfResult } from "./resources-read.ts";
import { beginRound, InputRequired, inputRequiredLine, raceRound, rethrowWire } from "../../ask/rounds.ts";
import type { RequestContext } from "../../server/context.ts";
import { lazySchema } from "../../runtime/once.ts";
import { missingScopes } from "../../shared/auth.ts";

/** The checked params of a `prompts/get`. */
export interface GetParams {
  readonly name: string;
  readonly arguments?: unknown;
  /** 2026-07-28 retry fields (basic/patterns/mrtr). */
  readonly requestState?: unknown;
  readonly inputResponses?: unknown;
}

const params = lazySchema(() =>
  wireObject(
    { name: v.string('Invalid params: "name" must be a string') },
    "Invalid params: prompts/get needs params {name, arguments?}",
  ),
) as v.GenericSchema<unknown, GetParams>;

function failure(name: string, e: unknown, ctx: RequestContext): RpcError {
  // The round's wire errors (a bad inputResponses value; -32021 at 2026-07-28) as they are.
  rethrowWire(e, ctx);
  if (e instanceof RpcError) return e;
  if (e instanceof PromptArgumentsError) return new RpcError(ErrorCode.InvalidParams, e.message);
  if (!(e instanceof ContentDefinitionError)) logLine(`prompt ${name} threw: ${(e as Error)?.stack ?? e}`);
  return new RpcError(ErrorCode.InternalError, `Prompt ${name} failed: ${thrownMessage(e)}`);
}

/** The `prompts/get` entry: an unknown prompt and a missing or non-string argument are -32602; a prompt that throws is -32603 with its message. */
export const promptsGet: MethodSpec<GetParams, PromptResult | InputRequired> = {
  name: "prompts/get",
  eras: ["legacy", "modern"],
  capability: "prompts",
  waitsForUpstreams: true,
  params,
  handle(p, ctx) {
    const content = ctx.connection.registry.content;
    const prompt = content.prompts.get(p.name);
    const provider = prompt ? undefined : content.providers.find((x) => x.serves.prompts && x.hasPrompt(p.name));
    if (provider) {
      // Another server's prompt (an upstream's): its messages as it sent them; its asks relayed.
      const args = p.arguments ?? {};
      if (typeof args !== "object" || args === null || Array.isArray(args))
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params: the arguments of prompt "${p.name}" must be an object of strings`,
        );
      beginRound(ctx, { method: "prompts/get", name: p.name, args }, p);
      return raceRound(ctx, provider.getPrompt(p.name, args as Record<string, unknown>, ctx)).then(
        undefined,
        (e: unknown) => {
          throw failure(p.name, e, ctx);
        },
      );
    }
    if (!prompt)
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown prompt ${JSON.stringify(p.name)}`);
    const missing = missingScopes(ctx.auth, prompt.definition.scopes);
    // Over HTTP the transport answered 403 (step-up) already, unless http.auth.scopeFailure is "result".
    if (missing.length > 0)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Prompt ${p.name} needs the OAuth scopes ${missing.join(" ")}, which this token was not granted; sign in again asking for them`,
      );
    beginRound(ctx, { method: "prompts/get", name: p.name, args: p.arguments ?? {} }, p);
    let value: unknown;
    try {
      const args = parsePromptArguments(prompt, p.arguments ?? {});
      value = prompt.definition.get(args as never, ctx);
    } catch (e) {
      throw failure(p.name, e, ctx);
    }
    const what = `prompt "${p.name}"`;
    if (!(value instanceof Promise)) {
      try {
        return toPromptResult(what, value);
      } catch (e) {
        throw failure(p.name, e, ctx);
      }
    }
    // 2026-07-28: the round ends at the first unanswered ask (InputRequired).
    return raceRound(ctx, value)
      .then((x) => (x instanceof InputRequired ? x : toPromptResult(what, x)))
      .then(undefined, (e: unknown) => {
        throw failure(p.name, e, ctx);
      });
  },
  line(id, r, ctx) {
    if (r instanceof InputRequired) return inputRequiredLine(id, r, ctx);
    return lineOfResult(id, projectPromptResult(r, ctx.features), ctx);
  },
};
