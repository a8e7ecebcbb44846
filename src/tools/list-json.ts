/** @module The serialized `tools/list` result of a server, per version: computed on first use, kept until its tool set changes. */
import { completeResultJson } from "../protocol/project.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import type { ServerState } from "../server/context.ts";
import { slot } from "../server/slot.ts";
import { projectToolJson } from "./project.ts";

/** Per server: the serialized result by version (`<version>+ui` for a client with MCP Apps), cleared on each change. */
const listJson = slot<ServerState, Map<string, string>>("tools: the serialized tools/list per version", (server) => {
  const kept = new Map<string, string>();
  server.onToolsChanged(() => kept.clear());
  return kept;
});

/**
 * The serialized `tools/list` result of one server for one version (MCP server/tools "Listing Tools"): the
 * server's listed tools, projected; a server with app-only or scoped tools sends its 2026-07-28 lists as
 * `cacheScope: "private"`.
 * @param server - the server (its Registry).
 * @param f - the version features in force.
 * @returns the result object as JSON text.
 */
export function toolsListJson(server: ServerState, f: VersionFeatures): string {
  const kept = listJson.get(server);
  const key = f.ui ? `${f.version}+ui` : f.version;
  let json = kept.get(key);
  if (json === undefined) {
    const tools = server
      .listedTools(f)
      .map((t) => projectToolJson(t, f))
      .join(",");
    json = completeResultJson(
      `{"tools":[${tools}]}`,
      f,
      server.modernMetaJson,
      server.appOnlyTools || server.scopedTools ? "private" : true,
    );
    kept.set(key, json);
  }
  return json;
}
