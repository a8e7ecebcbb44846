/** @module resources/subscribe and resources/unsubscribe (legacy era): `notifications/resources/updated` when a resource's changed() is called (MCP server/resources). */
import * as v from "valibot";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { MAX_SUBSCRIPTIONS } from "../subscriptions.ts";
import type { MethodSpec } from "../method.ts";
import { resourceNotFound } from "./resources-read.ts";

const params = v.looseObject({ uri: v.string('Invalid params: "uri" must be a string') }, "Invalid params: needs params {uri}") as v.GenericSchema<unknown, { uri: string }>;

const EMPTY = Object.freeze({});

/** The `resources/subscribe` entry: a URI nothing serves is not found (-32002 with data.uri). */
export const resourcesSubscribe: MethodSpec<{ uri: string }, Record<string, never>> = {
  name: "resources/subscribe",
  eras: ["legacy"],
  capability: "resources",
  params,
  handle(p, ctx) {
    if (!ctx.connection.registry.content.find(p.uri)) throw resourceNotFound(p.uri, ctx);
    if (!ctx.connection.subscriptions.subscribe(p.uri)) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: this session already holds ${MAX_SUBSCRIPTIONS} subscriptions; unsubscribe from some first`);
    return EMPTY;
  },
};

/** The `resources/unsubscribe` entry. */
export const resourcesUnsubscribe: MethodSpec<{ uri: string }, Record<string, never>> = {
  name: "resources/unsubscribe",
  eras: ["legacy"],
  capability: "resources",
  params,
  handle(p, ctx) {
    ctx.connection.subscriptions.unsubscribe(p.uri);
    return EMPTY;
  },
};
