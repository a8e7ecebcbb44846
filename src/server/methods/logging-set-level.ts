/** @module logging/setLevel (legacy era): the least severe level the client wants `notifications/message` for (MCP server/utilities/logging). */
import * as v from "valibot";
import { wireObject } from "../../protocol/wire-object.ts";
import { LOG_LEVELS, type LoggingLevel } from "../../protocol/logging.ts";
import type { MethodSpec } from "../method.ts";
import { lazySchema } from "../../runtime/once.ts";

const params = lazySchema(() =>
  wireObject(
    { level: v.picklist(LOG_LEVELS, `Invalid params: "level" must be one of ${LOG_LEVELS.join(", ")}`) },
    "Invalid params: logging/setLevel needs params {level}",
  ),
) as v.GenericSchema<unknown, { level: LoggingLevel }>;

const EMPTY = Object.freeze({});

/** The `logging/setLevel` entry (2026-07-28 asks per request with `_meta` logLevel instead). */
export const loggingSetLevel: MethodSpec<{ level: LoggingLevel }, Record<string, never>> = {
  name: "logging/setLevel",
  eras: ["legacy"],
  capability: "logging",
  changesSession: true,
  params,
  handle(p, ctx) {
    ctx.connection.logLevel = p.level;
    return EMPTY;
  },
};
