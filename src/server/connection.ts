/** @module The connection a request arrives on and the server state it reaches, as the core declares them; each capability adds its own members to both by augmenting these interfaces from its folder. */
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { LoggingLevel } from "../protocol/logging.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import type { AuthInfo } from "../shared/auth.ts";
import type { ClientInfo } from "./middleware-api.ts";
import type { ResolvedOptions } from "./options.ts";
import type { Outbound } from "./outbound.ts";
import type { ServerHandle } from "../shared/server-handle.ts";

export type { ClientInfo, ServerHandle };

/** The era of a request: a session negotiated by `initialize`, or a stateless 2026-07-28 request. */
export type Era = "legacy" | "modern";

/** What a transport knows about a request beyond its JSON-RPC message. */
export interface RequestExtras {
  /** The legacy HTTP session (Mcp-Session-Id). */
  readonly session?: { readonly id: string };
  /** The HTTP request's headers. */
  readonly http?: { readonly headers: Headers };
  /** The caller the request was authorized as (the bearer token, and with OAuth its verified claims). */
  readonly auth?: AuthInfo;
}

/**
 * The connection a request arrived on, as a request sees it (src/server/dispatcher.ts Session implements it).
 * Its method table is declared with the table (src/server/method-spec.ts); a capability keeps its own state of
 * a connection in a slot (src/server/slot.ts), e.g. the content capability's subscriptions.
 */
export interface Connection {
  /** The server: its tools, identity and options. */
  readonly registry: ServerState;
  /** The legacy version negotiated by `initialize`, once it has been. */
  version: string | undefined;
  /** The client as `initialize` described it, once it has. */
  client: ClientInfo | undefined;
  /** Requests to the client on this connection. */
  readonly outbound: Outbound;
  /** Sends a line to the client; `relatedId` names the request it belongs to (HTTP routes it to that request's stream); `replaceable` lets a newer line of that request replace it while unsent (progress). */
  send(line: string, relatedId: RequestId | undefined, replaceable?: boolean): void;
  /** The level `logging/setLevel` asked for (legacy era), once it has. */
  logLevel: LoggingLevel | undefined;
}

/**
 * The server as the pipeline sees it: what src/server/registry.ts's Registry has (it implements this), so the
 * request context and the method table need not import the Registry that builds them. The core declares its
 * identity and options; each capability declares what it keeps on the server by augmenting this interface
 * (src/tools/server-state.ts, src/content/server-state.ts, src/apps/server-state.ts).
 */
export interface ServerState extends ServerHandle {
  readonly options: ResolvedOptions;
  /** The server object (createServer()) the registry belongs to: what `ctx.server` is. */
  server: ServerHandle | undefined;
  /** `_meta` of every modern result, and that serialized once. */
  readonly modernMeta: Record<string, unknown>;
  readonly modernMetaJson: string;
  /** `serverInfo` for a version. */
  serverInfo(f: VersionFeatures): Record<string, unknown>;
}
