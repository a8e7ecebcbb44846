/** @module A server fronting other MCP servers (its `upstreams` option): the gateway attached to its registry, tools joining and leaving, lazy start, merged instructions. */
import type { Registry } from "../server/registry.ts";
import { createGateway, type Gateway, type GatewayOptions } from "./gateway.ts";
import { parseEntries, type UpstreamConfig } from "./servers-file.ts";
import { logName } from "../runtime/log-name.ts";

/** A registry's upstreams, attached. */
export interface Front {
  readonly gateway: Gateway;
  /** Starts the eager upstreams and waits for their start window (before serving: their instructions join ours). */
  start(): Promise<void>;
  /** Every upstream started and its window over (the lazy ones start here): what the first list or call waits for. */
  ready(): Promise<void>;
  /** Ends every upstream; the children end. */
  close(): Promise<void>;
}

/**
 * Attaches upstreams to a registry: their tools are added beside its own (an own tool's name is never
 * taken: a colliding upstream tool becomes `<server>__<tool>`), and every later change (an upstream joining
 * late, or listing other tools) is one change of the registry, which tells the clients
 * (`notifications/tools/list_changed`, or the 2026-07-28 listen stream). Entries are checked and
 * `${VAR}`-expanded now (an entry with a mistake or an unset variable is left out with one line on stderr).
 * @param registry - the server's registry.
 * @param upstreams - name → entry, as the `upstreams` option holds them.
 * @param opts - the gateway's options (naming, stderr, fetch, restart delay).
 * @returns the front; nothing is started before `start()` or `ready()`.
 */
export function attachUpstreams(
  registry: Registry,
  upstreams: Readonly<Record<string, UpstreamConfig>>,
  opts: GatewayOptions = {},
): Front {
  const { servers, problems } = parseEntries(upstreams);
  for (const p of problems) process.stderr.write(`${logName()}: upstreams: ${p}; left out\n`);
  const gateway = createGateway(servers, { ...opts, reserved: [...registry.tools.keys()] });
  // A call to a tool no upstream listed says which upstreams are down and why (e.g. sign-in failed):
  // their tools are not known, so the call may have been meant for one of them.
  registry.unknownToolNote = () => {
    const down = gateway.report.filter((r) => r.status === "down" && r.listed.length === 0 && r.error !== undefined);
    return down.length === 0
      ? undefined
      : down.map((r) => `upstream "${r.server}" is unavailable: ${r.error}`).join("; ");
  };
  const own = registry.options.instructions;
  let applied = false;
  const applyOnce = (): void => {
    if (applied) return;
    applied = true;
    registry.changeTools(gateway.tools, []);
    const theirs = gateway.instructions;
    if (theirs !== undefined)
      (registry.options as { instructions?: string }).instructions = own === undefined ? theirs : `${own}\n\n${theirs}`;
    gateway.onChange((c) => registry.changeTools(c.added, c.removed));
  };
  return {
    gateway,
    start: () => gateway.start().then(applyOnce),
    ready: () =>
      gateway
        .start()
        .then(applyOnce)
        .then(() => gateway.ready()),
    close: () => gateway.close(),
  };
}
