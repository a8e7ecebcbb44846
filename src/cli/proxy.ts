/** @module mcpbin proxy: other MCP servers fronted as one (stdio or HTTP), a remote one made local, and --check. */
import { basename } from "node:path";
import { CliError } from "./errors.ts";
import { startGateway, type Gateway } from "../client/gateway.ts";
import { NamingError } from "../client/naming.ts";
import type { NamingStrategy } from "../client/naming.ts";
import {
  expandVars,
  parseServerEntry,
  readServersFile,
  ServersFileError,
  type UpstreamConfig,
} from "../client/servers-file.ts";
import { TOOL_NAME } from "../tools/name.ts";
import { serve } from "../serve/serve.ts";

/** The tool count above which common clients stop (Copilot: 128). */
export const TOOL_CAP = 128;

/** What `mcpbin proxy` was asked, parsed. */
export interface ProxyArgs {
  readonly servers?: string;
  readonly url?: string;
  readonly headers: readonly string[];
  /** `--oauth`: sign in to the `--url` server with OAuth 2.1 when it asks; `--client-id` names a pre-registered client. */
  readonly oauth?: boolean;
  readonly clientId?: string;
  readonly naming?: string;
  readonly name?: string;
  readonly check: boolean;
}

/**
 * The upstream entries of a proxy command: every entry of the servers file, plus the `--url` one.
 * @throws CliError (exit 2) on a bad `--header` or `--naming`, a file that cannot be read, or no upstream at all.
 */
export async function proxyUpstreams(
  a: ProxyArgs,
): Promise<{ servers: Record<string, UpstreamConfig>; naming: NamingStrategy }> {
  const servers: Record<string, UpstreamConfig> = {};
  if (a.servers !== undefined) {
    let parsed;
    try {
      parsed = await readServersFile(a.servers);
    } catch (e) {
      throw new CliError(`proxy: ${(e as Error).message}`, 2);
    }
    for (const p of parsed.problems) process.stderr.write(`mcpbin: ${basename(a.servers)}: ${p}; left out\n`);
    Object.assign(servers, parsed.servers);
  }
  if (a.url !== undefined) {
    const headers: Record<string, string> = {};
    for (const h of a.headers) {
      const i = h.indexOf(":");
      if (i <= 0) throw new CliError(`proxy: --header must be "Name: value"; got ${JSON.stringify(h)}`, 2);
      try {
        headers[h.slice(0, i).trim()] = expandVars(h.slice(i + 1).trim());
      } catch (e) {
        throw new CliError(`proxy: --header ${h.slice(0, i).trim()}: ${(e as Error).message}`, 2);
      }
    }
    const name = a.name ?? "remote";
    try {
      const oauth = a.clientId !== undefined ? { clientId: a.clientId } : a.oauth === true ? true : undefined;
      servers[name] = parseServerEntry(name, { url: a.url, headers, ...(oauth ? { oauth } : {}) })!;
    } catch (e) {
      throw new CliError(`proxy: --url: ${(e as ServersFileError).message}`, 2);
    }
  } else if (a.headers.length > 0 || a.oauth || a.clientId !== undefined)
    throw new CliError(`proxy: ${a.headers.length > 0 ? "--header" : "--oauth"} goes with --url`, 2);
  if (Object.keys(servers).length === 0)
    throw new CliError("proxy needs --servers FILE (an mcpServers/servers JSON file) or --url URL", 2);
  const naming = (a.naming ?? (a.servers === undefined ? "none" : "on-collision")) as NamingStrategy;
  if (!["prefix", "on-collision", "none"].includes(naming))
    throw new CliError(`proxy: --naming must be prefix, on-collision or none; got ${JSON.stringify(a.naming)}`, 2);
  return { servers, naming };
}

/**
 * The `--check` report: per upstream its status, tools kept of those listed, bytes of the definitions we
 * would send, an estimate of their tokens (bytes / 4), and name problems (names mapped or cut to fit
 * `^[A-Za-z0-9_-]{1,64}$`, names prefixed because they collide); a warning above {@link TOOL_CAP} tools.
 * @returns the text, and whether every upstream is up.
 */
export function checkReport(g: Gateway): { text: string; ok: boolean } {
  const lines: string[] = [];
  let total = 0;
  for (const r of g.report) {
    if (r.status === "down") {
      lines.push(`${r.server}${r.url ? ` (${r.url})` : ""}: DOWN: ${r.error}`);
      continue;
    }
    const defs = r.listed.filter((t) => r.exposed.has(t.name)).map((t) => ({ ...t, name: r.exposed.get(t.name) }));
    const bytes = Buffer.byteLength(JSON.stringify(defs));
    total += defs.length;
    lines.push(
      `${r.server}: up (${r.protocolVersion}), ${defs.length} of ${r.listed.length} tools, ${bytes} bytes of definitions, ~${Math.ceil(bytes / 4)} tokens`,
    );
    for (const [from, to] of r.exposed) {
      if (from === to) continue;
      const why = !TOOL_NAME.test(from)
        ? from.length > 64
          ? "longer than 64 characters"
          : "characters outside A-Z a-z 0-9 _ -"
        : "collides with another server's tool";
      lines.push(`  ${from} → ${to} (${why})`);
    }
  }
  lines.push(`total: ${total} tools`);
  if (total > TOOL_CAP)
    lines.push(
      `warning: ${total} tools is over ${TOOL_CAP}, where some clients stop (GitHub Copilot); filter with include/exclude`,
    );
  return { text: lines.join("\n") + "\n", ok: g.report.every((r) => r.status === "up") };
}

/**
 * Runs `mcpbin proxy`: serves the upstreams' tools (`serve({ upstreams })`: eager upstreams start first) over
 * stdio, or over Streamable HTTP when `--http` is among the arguments (serve() reads it); with `--check`
 * starts every upstream, prints the report and ends them instead.
 * @returns the exit code (check: 1 when an upstream is down).
 */
export async function proxy(a: ProxyArgs, version: string): Promise<number> {
  const { servers, naming } = await proxyUpstreams(a);
  if (a.check) {
    let gateway: Gateway;
    try {
      // One try each: the report says what is down; nothing restarts, since the command ends after it.
      gateway = await startGateway(servers, { naming, restart: false });
      await gateway.ready();
    } catch (e) {
      throw new CliError(`proxy: ${(e as Error).message}`, 2);
    }
    const r = checkReport(gateway);
    process.stdout.write(r.text);
    await gateway.close();
    return r.ok ? 0 : 1;
  }
  try {
    // The upstreams are the server's (createServer's `upstreams`): late joiners and list changes reach the client.
    await serve({ name: a.name ?? "mcpbin-proxy", version, tools: [], upstreams: servers, upstreamNaming: naming });
  } catch (e) {
    if (e instanceof NamingError) throw new CliError(`proxy: ${e.message}`, 2);
    throw e;
  }
  return 0;
}
