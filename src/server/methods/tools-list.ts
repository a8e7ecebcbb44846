/** @module tools/list: every tool as the version in force lists it, serialized once per version (MCP server/tools). */
import * as v from "valibot";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { ProjectedJson } from "../../protocol/project.ts";
import type { MethodSpec } from "../method.ts";

const params = v.nullish(v.looseObject({ cursor: v.optional(v.unknown()) }));

/** The `tools/list` entry (one page: cursors other than empty are unknown). */
export const toolsList: MethodSpec<{ cursor?: unknown } | null | undefined, ProjectedJson> = {
  name: "tools/list",
  eras: ["legacy", "modern"],
  capability: "tools",
  cacheable: true,
  params,
  handle(p, ctx) {
    const cursor = p?.cursor;
    if (cursor !== undefined && cursor !== "" && cursor !== null) throw new RpcError(ErrorCode.InvalidParams, "Invalid params: unknown cursor");
    return new ProjectedJson(ctx.connection.registry.toolsListJson(ctx.features));
  },
};
