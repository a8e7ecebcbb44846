/** @module resources/subscribe and resources/unsubscribe (legacy era): `notifications/resources/updated` when a resource's changed() is called (MCP server/resources). */
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { MAX_SUBSCRIPTIONS, subscriptionsOf } from "../subscriptions.ts";
import type { MethodSpec } from "../../server/method.ts";
import { resourceNotFound } from "./resources-read.ts";
import { lazySchema } from "../../runtime/once.ts";

const params = lazySchema(() =>
  wireObject({ uri: v.string('Invalid params: "uri" must be a string') }, "Invalid params: needs params {uri}"),
) as v.GenericSchema<unknown, { uri: string }>;

const EMPTY = Object.freeze({});

/** The `resources/subscribe` entry: a URI nothing serves is not found (-32002 with data.uri). */
export const resourcesSubscribe: MethodSpec<{ uri: string }, Record<string, never>> = {
  name: "resources/subscribe",
  eras: ["legacy"],
  capability: "resources",
  changesSession: true,
  waitsForUpstreams: true,
  params,
  handle(p, ctx) {
    const c = ctx.connection.registry.content;
    const provider = c.find(p.uri) ? undefined : c.providerOf(p.uri);
    if (!provider && !c.find(p.uri)) throw resourceNotFound(p.uri, ctx);
    if (provider && !provider.serves.subscribe)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: changes of ${p.uri} are not delivered (its server does not offer subscriptions)`,
      );
    const subs = subscriptionsOf.get(ctx.connection);
    const had = subs.has(p.uri);
    if (!subs.subscribe(p.uri))
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: this session already holds ${MAX_SUBSCRIPTIONS} subscriptions; unsubscribe from some first`,
      );
    if (provider && !had) provider.subscribe(p.uri);
    return EMPTY;
  },
};

/** The `resources/unsubscribe` entry. */
export const resourcesUnsubscribe: MethodSpec<{ uri: string }, Record<string, never>> = {
  name: "resources/unsubscribe",
  eras: ["legacy"],
  capability: "resources",
  changesSession: true,
  params,
  handle(p, ctx) {
    const subs = subscriptionsOf.get(ctx.connection);
    if (subs.has(p.uri)) ctx.connection.registry.content.providerOf(p.uri)?.unsubscribe(p.uri);
    subs.unsubscribe(p.uri);
    return EMPTY;
  },
};
