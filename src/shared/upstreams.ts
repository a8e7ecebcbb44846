/** @module The shape of the `upstreams` option (and of each entry of an `mcpServers`/`servers` file) and of `upstreamNaming`: a shared shape (src/shared/), imports nothing of ours but another shape. */
import type { OAuthClientOptions } from "./oauth-client.ts";

/** One upstream as configured: a command (stdio) or a URL (Streamable HTTP), plus what the gateway does with it. */
export interface UpstreamConfig {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** HTTP: sign in with OAuth 2.1 when the server asks (`true`, or client options: docs/auth.md). */
  readonly oauth?: boolean | OAuthClientOptions;
  /** Skipped entirely when true. */
  readonly disabled?: boolean;
  /** Only the tools whose upstream names match one of these globs. */
  readonly include?: readonly string[];
  /** The tools whose upstream names match one of these globs are left out. */
  readonly exclude?: readonly string[];
  /** Upstream tool name → the exposed name wanted. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** Time limit of its handshake, ms (default 10000). */
  readonly startTimeoutMs?: number;
  /** Time limit of each call, ms (default 60000; 0 = none). */
  readonly timeoutMs?: number;
  /** More variable names the child inherits from our environment. */
  readonly inheritEnv?: readonly string[];
  /**
   * "eager" (default): started with the server; "lazy": at the first `tools/list` or `tools/call` (for an
   * upstream that is costly to start and seldom needed; its `instructions` then miss the handshake).
   */
  readonly start?: "eager" | "lazy";
  /** False: its `instructions` are left out of the proxy's own (default true: included under a heading naming it). */
  readonly instructions?: boolean;
  /**
   * A server in this process (made by createServer()), reached over an in-memory pair: what `mount()` fronts.
   * Not read from a servers file. (Typed loosely: the servers file's shapes do not import the server.)
   */
  readonly server?: object;
}

/** How upstream tool names become ours (docs/servers.md). */
export type NamingStrategy =
  /** Every tool becomes `<server>__<tool>`. */
  | "prefix"
  /** Only tools whose names collide with another server's become `<server>__<tool>`; the rest keep their names (default). */
  | "on-collision"
  /** Names as they are; two servers with the same name are a start error, never a silent shadow. */
  | "none";
