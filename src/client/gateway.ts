/** @module The gateway: many upstream servers fronted as one set of tools, with their lifecycle (start, restart with backoff, retry, shutdown). */
import type { Tool } from "../tool/types.ts";
import { OutboundError } from "../server/outbound.ts";
import type { CallOptions, CallToolResult, JsonObject, McpClient, UpstreamTool } from "./client.ts";
import { connect } from "./connect.ts";
import { exposedNames, type NamingStrategy } from "./naming.ts";
import type { StderrMode } from "./stdio.ts";
import type { UpstreamConfig } from "./servers-file.ts";
import { passesFilters, passthroughTool } from "./upstream-tools.ts";

/** Options of {@link startGateway}. */
export interface GatewayOptions {
  /** How upstream tool names become ours (default "on-collision"). */
  readonly naming?: NamingStrategy;
  /** What each child's stderr becomes (default: our stderr, each line prefixed `[name] `). */
  readonly stderr?: StderrMode;
  /** The fetch for HTTP upstreams. */
  readonly fetch?: typeof fetch;
  /** First delay before restarting a crashed upstream, ms (default 500; doubles per failure up to 30 s). */
  readonly restartDelayMs?: number;
}

/** What the gateway knows about one upstream (for `mcpbin proxy --check` and logs). */
export interface UpstreamReport {
  readonly server: string;
  readonly status: "up" | "down";
  /** Why it is down. */
  readonly error?: string;
  readonly protocolVersion?: string;
  /** The tools it listed, as it listed them (before include/exclude). */
  readonly listed: readonly UpstreamTool[];
  /** Upstream tool name → the name we expose, for the tools kept. */
  readonly exposed: ReadonlyMap<string, string>;
}

const MAX_BACKOFF_MS = 30_000;

/** One upstream's connection over time: at most one connect at a time, restarted with backoff after a crash. */
class Upstream {
  client: McpClient | undefined;
  #connecting: Promise<McpClient> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay: number;
  #stopped = false;

  constructor(
    readonly name: string,
    readonly config: UpstreamConfig,
    readonly opts: GatewayOptions,
  ) {
    this.#delay = opts.restartDelayMs ?? 500;
  }

  /** The connected client: the current one, the one being connected, or a new connection now. */
  connect(): Promise<McpClient> {
    if (this.client) return Promise.resolve(this.client);
    if (this.#connecting) return this.#connecting;
    if (this.#stopped) return Promise.reject(new OutboundError("closed", `${this.name}: the gateway is shutting down`));
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const c = this.config;
    const target = c.url !== undefined ? { url: c.url, headers: c.headers } : { command: c.command!, args: c.args, env: c.env, cwd: c.cwd };
    this.#connecting = connect(target, {
      name: this.name,
      stderr: this.opts.stderr,
      inheritEnv: c.inheritEnv,
      fetch: this.opts.fetch,
      startTimeoutMs: c.startTimeoutMs,
      timeoutMs: c.timeoutMs,
    }).then(
      (client) => {
        this.#connecting = undefined;
        if (this.#stopped) {
          void client.close();
          throw new OutboundError("closed", `${this.name}: the gateway is shutting down`);
        }
        this.client = client;
        this.#delay = this.opts.restartDelayMs ?? 500;
        void client.closed.then((e) => this.#lost(client, e));
        return client;
      },
      (e: unknown) => {
        this.#connecting = undefined;
        throw e;
      },
    );
    return this.#connecting;
  }

  /** The connection ended: unless we ended it, restart after the current delay (doubling on each failure). */
  #lost(client: McpClient, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.#stopped || error === undefined) return;
    this.#schedule(`${error.message}`);
  }

  #schedule(why: string): void {
    const delay = this.#delay;
    this.#delay = Math.min(delay * 2, MAX_BACKOFF_MS);
    process.stderr.write(`mcpbin: upstream "${this.name}": ${why}; restarting in ${delay} ms\n`);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.connect().catch((e: unknown) => {
        if (!this.#stopped && !this.client) this.#schedule(`restart failed: ${(e as Error).message}`);
      });
    }, delay);
    this.#timer.unref?.();
  }

  /**
   * Calls a tool; when the connection is lost during the call, retries once on a new connection, but only
   * for a tool marked `readOnlyHint` or `idempotentHint` (a second run of anything else could repeat its effect).
   */
  async call(tool: string, args: JsonObject, opts: CallOptions, retryable: boolean): Promise<CallToolResult> {
    const client = await this.connect();
    try {
      return await client.callTool(tool, args, opts);
    } catch (e) {
      if (!(e instanceof OutboundError) || e.code !== "closed" || opts.signal?.aborted) throw e;
      if (!retryable) {
        throw new OutboundError("closed", `${e.message}; the call was not retried, as ${tool} is not marked readOnlyHint or idempotentHint`);
      }
      const again = await this.connect();
      return await again.callTool(tool, args, opts);
    }
  }

  /** Ends the connection and any restart; the child process ends. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const pending = this.#connecting;
    await Promise.all([this.client?.close(), pending?.then((c) => c.close(), () => {})]);
    this.client = undefined;
  }
}

/** Many upstreams fronted as one set of tools. Made by {@link startGateway}. */
export interface Gateway {
  /** The passthrough tools of every upstream that answered, named by the naming strategy. */
  readonly tools: Tool[];
  /** The upstreams' `instructions`, each under a `## <server>` heading; undefined when none gave any. */
  readonly instructions: string | undefined;
  /** One entry per configured upstream, in configuration order. */
  readonly report: readonly UpstreamReport[];
  /** Ends every upstream (children get EOF on stdin, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}

/**
 * Connects to every upstream at once, each bounded by its start timeout (default 10 s), lists their tools,
 * names them and wraps them as passthrough tools. An upstream that cannot start or does not answer its
 * handshake in time is reported on stderr and left out; the others are unaffected. A crashed upstream is
 * restarted with backoff (and on the next call at once); a call lost with the connection is retried once
 * for `readOnlyHint`/`idempotentHint` tools; a failed call is an isError result naming the upstream.
 * @param servers - name → entry ({@link UpstreamConfig}); disabled entries are already gone.
 * @param opts - naming, stderr, fetch, restart delay.
 * @returns the gateway.
 * @throws NamingError when strategy "none" meets two tools of one name.
 */
export async function startGateway(servers: Readonly<Record<string, UpstreamConfig>>, opts: GatewayOptions = {}): Promise<Gateway> {
  const ups = Object.entries(servers).map(([name, c]) => new Upstream(name, c, opts));
  const listed = await Promise.all(
    ups.map(async (u) => {
      try {
        const client = await u.connect();
        return { u, tools: await client.listTools(), client };
      } catch (e) {
        const error = (e as Error).message;
        process.stderr.write(`mcpbin: upstream "${u.name}" left out: ${error}\n`);
        return { u, tools: [] as UpstreamTool[], error };
      }
    }),
  );
  const kept = listed.map((l) => ({ ...l, kept: l.tools.filter((t) => typeof t?.name === "string" && passesFilters(t.name, l.u.config.include, l.u.config.exclude)) }));
  const aliases = Object.fromEntries(ups.map((u) => [u.name, u.config.aliases ?? {}]));
  const names = exposedNames(kept.map((k) => ({ server: k.u.name, tools: k.kept.map((t) => t.name) })), opts.naming ?? "on-collision", aliases);
  const tools: Tool[] = [];
  const report: UpstreamReport[] = [];
  const sections: string[] = [];
  for (const k of kept) {
    const exposed = new Map<string, string>();
    for (const def of k.kept) {
      const name = names.get(k.u.name)!.get(def.name)!;
      const a = def.annotations as { readOnlyHint?: boolean; idempotentHint?: boolean } | undefined;
      const retryable = a?.readOnlyHint === true || a?.idempotentHint === true;
      try {
        tools.push(passthroughTool(def, name, (tool, args, o) => k.u.call(tool, args, o, retryable), k.u.config.timeoutMs));
        exposed.set(def.name, name);
      } catch (e) {
        process.stderr.write(`mcpbin: upstream "${k.u.name}": tool ${JSON.stringify(def.name)} left out: ${(e as Error).message}\n`);
      }
    }
    const instructions = k.client?.instructions;
    if (instructions) sections.push(`## ${k.u.name}\n${instructions}`);
    report.push({ server: k.u.name, status: k.error ? "down" : "up", error: k.error, protocolVersion: k.client?.protocolVersion, listed: k.tools, exposed });
  }
  return {
    tools,
    instructions: sections.length > 0 ? sections.join("\n\n") : undefined,
    report,
    async close() {
      await Promise.all(ups.map((u) => u.stop()));
    },
  };
}
