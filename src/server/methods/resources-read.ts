/** @module resources/read: a fixed resource or the first template that matches the URI, read and projected; not found per era (MCP server/resources). */
import * as v from "valibot";
import { ErrorCode, resultLine, RpcError, type RequestId } from "../../protocol/jsonrpc.ts";
import { completeResult } from "../../protocol/project.ts";
import { cacheFields, projectContents } from "../../protocol/project-content.ts";
import { PRIVATE_NO_CACHE } from "../../content/catalog.ts";
import { ContentDefinitionError, thrownMessage } from "../../content/common.ts";
import { fixedContents, readTemplate, ResourceReadError, type ResourceContents } from "../../content/resource.ts";
import type { RequestContext } from "../context.ts";
import type { MethodSpec } from "../method.ts";

/** The checked params of a `resources/read`. */
export interface ReadParams {
  readonly uri: string;
}

const params = v.looseObject({ uri: v.string('Invalid params: "uri" must be a string') }, "Invalid params: resources/read needs params {uri}") as v.GenericSchema<unknown, ReadParams>;

/** A read's neutral result: the contents and the cache hints of what was read. */
interface ReadResult {
  readonly contents: readonly ResourceContents[];
  readonly cache: { readonly ttlMs: number; readonly scope: "public" | "private" };
}

/**
 * The not-found error of the era: legacy -32002, 2026-07-28 -32602; both with `data.uri`
 * (BEYOND-TOOLS.md §1.1: never empty contents).
 */
export function resourceNotFound(uri: string, ctx: RequestContext): RpcError {
  return new RpcError(ctx.era === "modern" ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });
}

/** A reader's failure as the wire error: a refused read -32602, anything else -32603 with its message (the stack on stderr). */
function failure(uri: string, e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  if (e instanceof ResourceReadError) return new RpcError(ErrorCode.InvalidParams, e.message, { uri });
  if (!(e instanceof ContentDefinitionError)) process.stderr.write(`mcpbin: reading ${uri} threw: ${(e as Error)?.stack ?? e}\n`);
  return new RpcError(ErrorCode.InternalError, `Reading ${uri} failed: ${thrownMessage(e)}`);
}

/** The `resources/read` entry. */
export const resourcesRead: MethodSpec<ReadParams, ReadResult> = {
  name: "resources/read",
  eras: ["legacy", "modern"],
  capability: "resources",
  params,
  handle(p, ctx) {
    const c = ctx.connection.registry.content;
    const found = c.find(p.uri);
    if (!found) throw resourceNotFound(p.uri, ctx);
    const def = "resource" in found ? found.resource.definition : found.template.definition;
    const cache = def.cache ?? PRIVATE_NO_CACHE;
    let pending: Promise<ResourceContents[]>;
    try {
      // Fixed content (text, blob, an embedded file) is answered at once, without a request in flight.
      const fixed = "resource" in found ? fixedContents(found.resource) : undefined;
      if (fixed) return { contents: fixed, cache };
      pending = "resource" in found ? found.resource.read(ctx) : readTemplate(found.template, p.uri, found.vars, ctx);
    } catch (e) {
      throw failure(p.uri, e);
    }
    return pending.then(
      (contents) => ({ contents, cache }),
      (e: unknown) => {
        throw failure(p.uri, e);
      },
    );
  },
  line(id, r, ctx) {
    const f = ctx.features;
    return lineOfResult(id, { contents: projectContents(r.contents, f), ...cacheFields(r.cache, f) }, ctx);
  },
};

/** The response line of a projected result (resultType and the server's `_meta` in 2026-07-28). */
export function lineOfResult(id: RequestId, result: Record<string, unknown>, ctx: RequestContext): string {
  return resultLine(id, completeResult(result, ctx.features, ctx.connection.registry.modernMeta, false));
}
