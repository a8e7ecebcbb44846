/** @module resources/read: a fixed resource or the first template that matches the URI, read and projected; not found per era (MCP server/resources). */
import { logLine } from "../../runtime/log-name.ts";
import { requestFeatures } from "../../server/register.ts";
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { ErrorCode, resultLine, RpcError, type RequestId } from "../../protocol/jsonrpc.ts";
import { cacheFields, completeResult } from "../../protocol/project.ts";
import { projectContents } from "../project.ts";
import type { Found } from "../catalog.ts";
import { PRIVATE_NO_CACHE } from "../../shared/cache.ts";
import { ContentDefinitionError, thrownMessage } from "../common.ts";
import { fixedContents, readTemplate, ResourceReadError, type ResourceContents } from "../resource.ts";
import type { RequestContext } from "../../server/context.ts";
import type { MethodSpec } from "../../server/method.ts";
import { beginRound, InputRequired, inputRequiredLine, raceRound, rethrowWire } from "../../ask/rounds.ts";
import { lazySchema } from "../../runtime/once.ts";
import { missingScopes } from "../../shared/auth.ts";

/** The checked params of a `resources/read`. */
export interface ReadParams {
  readonly uri: string;
  /** 2026-07-28 retry fields (basic/patterns/mrtr). */
  readonly requestState?: unknown;
  readonly inputResponses?: unknown;
}

const params = lazySchema(() =>
  wireObject(
    { uri: v.string('Invalid params: "uri" must be a string') },
    "Invalid params: resources/read needs params {uri}",
  ),
) as v.GenericSchema<unknown, ReadParams>;

/** A read's neutral result: the contents and the cache hints of what was read. */
interface ReadResult {
  readonly contents: readonly ResourceContents[];
  readonly cache: { readonly ttlMs: number; readonly scope: "public" | "private" };
}

/**
 * The not-found error of the era: legacy -32002, 2026-07-28 -32602; both with `data.uri`
 * (MCP server/resources ReadResourceResult: never empty contents).
 */
export function resourceNotFound(uri: string, ctx: RequestContext): RpcError {
  return new RpcError(
    ctx.era === "modern" ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound,
    `Resource not found: ${uri}`,
    { uri },
  );
}

/** A reader's failure as the wire error: a refused read -32602, anything else -32603 with its message (the stack on stderr). */
function failure(uri: string, e: unknown, ctx: RequestContext): RpcError {
  // An upstream's not-found (src/client/upstream-content.ts) is this era's.
  if (e instanceof RpcError && e.code === ErrorCode.ResourceNotFound) return resourceNotFound(uri, ctx);
  // The round's wire errors (a bad inputResponses value; -32021 at 2026-07-28) as they are.
  rethrowWire(e, ctx);
  if (e instanceof RpcError) return e;
  if (e instanceof ResourceReadError) return new RpcError(ErrorCode.InvalidParams, e.message, { uri });
  if (!(e instanceof ContentDefinitionError)) logLine(`reading ${uri} threw: ${(e as Error)?.stack ?? e}`);
  return new RpcError(ErrorCode.InternalError, `Reading ${uri} failed: ${thrownMessage(e)}`);
}

/** The `resources/read` entry. */
export const resourcesRead: MethodSpec<ReadParams, ReadResult | InputRequired> = {
  name: "resources/read",
  eras: ["legacy", "modern"],
  capability: "resources",
  waitsForUpstreams: true,
  params,
  handle(p, ctx) {
    const c = ctx.connection.registry.content;
    const found = c.find(p.uri);
    if (!found) {
      const provider = c.providerOf(p.uri);
      if (!provider) throw resourceNotFound(p.uri, ctx);
      // Another server's resource (an upstream's): its contents and cache hints as it sent them; its asks relayed.
      beginRound(ctx, { method: "resources/read", name: p.uri, args: {} }, p);
      return raceRound(ctx, provider.read(p.uri, ctx)).then(
        (r) => (r instanceof InputRequired ? r : { contents: r.contents, cache: r.cache ?? PRIVATE_NO_CACHE }),
        (e: unknown) => {
          throw failure(p.uri, e, ctx);
        },
      );
    }
    const def = "resource" in found ? found.resource.definition : found.template.definition;
    const missing = missingScopes(ctx.auth, def.scopes);
    // Over HTTP the transport answered 403 (step-up) already, unless http.auth.scopeFailure is "result".
    if (missing.length > 0)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Resource ${p.uri} needs the OAuth scopes ${missing.join(" ")}, which this token was not granted; sign in again asking for them`,
        { uri: p.uri },
      );
    const cache = def.cache ?? PRIVATE_NO_CACHE;
    beginRound(ctx, { method: "resources/read", name: p.uri, args: {} }, p);
    let pending: Promise<ResourceContents[]>;
    try {
      // Fixed content (text, blob, an embedded file) is answered at once, without a request in flight.
      const fixed = "resource" in found ? fixedContents(found.resource) : undefined;
      if (fixed) return { contents: asRequested(fixed, found, p.uri), cache };
      pending =
        "resource" in found
          ? found.resource.read(ctx).then((c) => asRequested(c, found, p.uri))
          : readTemplate(found.template, p.uri, found.vars, ctx);
    } catch (e) {
      throw failure(p.uri, e, ctx);
    }
    // 2026-07-28: the round ends at the first unanswered ask (InputRequired, no cache hints).
    return raceRound(ctx, pending).then(
      (contents) => (contents instanceof InputRequired ? contents : { contents, cache }),
      (e: unknown) => {
        throw failure(p.uri, e, ctx);
      },
    );
  },
  line(id, r, ctx) {
    if (r instanceof InputRequired) return inputRequiredLine(id, r, ctx);
    const f = requestFeatures(ctx);
    return lineOfResult(id, { contents: projectContents(r.contents, f), ...cacheFields(r.cache, f) }, ctx);
  },
};

/** A resource found by another spelling of its URI (percent-encoded) answers with the URI as requested. */
function asRequested(contents: ResourceContents[], found: Found, uri: string): ResourceContents[] {
  if (!("resource" in found) || found.resource.uri === uri) return contents;
  const own = found.resource.uri;
  return contents.map((c) => (c.uri === own ? { ...c, uri } : c));
}

/** The response line of a projected result (resultType and the server's `_meta` in 2026-07-28). */
export function lineOfResult(id: RequestId, result: Record<string, unknown>, ctx: RequestContext): string {
  return resultLine(id, completeResult(result, ctx.features, ctx.connection.registry.modernMeta, false));
}
