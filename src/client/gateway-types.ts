/** @module The gateway's shapes: the gateway itself, a change of its tool set, and what it reports of each upstream. */
import type { Tool } from "../tools/types.ts";
import type { UpstreamTool } from "./client.ts";
import type { UpstreamContent } from "./upstream-content.ts";

/** What the gateway knows about one upstream (for `mcpbin proxy --check` and logs). */
export interface UpstreamReport {
  readonly server: string;
  /** "up": answered and listed; "down": failed or did not answer within its start timeout (it may still join); "idle": lazy, not started yet. */
  readonly status: "up" | "down" | "idle";
  /** Why it is down (without the server's name). */
  readonly error?: string;
  /** An HTTP upstream's endpoint: origin and path, never its query or credentials. */
  readonly url?: string;
  readonly protocolVersion?: string;
  /** The tools it listed, as it listed them (before include/exclude). */
  readonly listed: readonly UpstreamTool[];
  /** Upstream tool name → the name we expose, for the tools kept. */
  readonly exposed: ReadonlyMap<string, string>;
}

/** A change of the gateway's tool set: tools added or replaced, and exposed names removed. */
export interface ToolsChange {
  readonly added: readonly Tool[];
  readonly removed: readonly string[];
}

/** Many upstreams fronted as one live set of tools. Made by {@link createGateway}. */
export interface Gateway {
  /** The passthrough tools served now, named by the naming strategy. */
  readonly tools: Tool[];
  /**
   * The upstreams' resources, templates and prompts (`serve({ resources: [gateway.content] })`; a server with
   * `upstreams` serves them itself): URIs rewritten when there are two or more upstreams (or naming
   * "prefix"), prompt names like tool names, asks forwarded.
   */
  readonly content: UpstreamContent;
  /** The upstreams' `instructions`, each under a heading naming its server (`## Instructions of the upstream server "<name>"`), except those of entries with `instructions: false`; undefined when none gave any. */
  readonly instructions: string | undefined;
  /** One entry per configured upstream, in configuration order. */
  readonly report: readonly UpstreamReport[];
  /**
   * Starts the eager upstreams (`start: "eager"`, the default). Resolves once each has answered and listed
   * its tools or its start timeout has passed (then it is reported on stderr and joins when it answers).
   * Idempotent.
   * @throws NamingError when strategy "none" meets two tools of one name.
   */
  start(): Promise<void>;
  /** As {@link start}, for every upstream, the lazy ones too (what the first `tools/list` or `tools/call` waits for). */
  ready(): Promise<void>;
  /**
   * Calls `listener` after the tool set changed once started: an upstream joined late, or one listed other
   * tools (its `list_changed`, or a restart).
   * @returns a function that removes the listener.
   */
  onChange(listener: (change: ToolsChange) => void): () => void;
  /** Ends every upstream (children get EOF on stdin, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}
