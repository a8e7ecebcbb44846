/** @module The client's shapes: what the server sends back (tools, call results), the handlers of its requests, and the options of the connection, a call and a request. */

/** An implementation's identity (MCP `Implementation`). */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly [key: string]: unknown;
}

/** A JSON object as the server sent it. */
export type JsonObject = Record<string, unknown>;

/** A tool as the server listed it (MCP `Tool`): every field kept. */
export interface UpstreamTool extends JsonObject {
  readonly name: string;
  readonly inputSchema: JsonObject;
}

/** What `tools/call` returned (MCP `CallToolResult`), as the server sent it. */
export interface CallToolResult extends JsonObject {
  readonly content: JsonObject[];
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
}

/** A server → client request the caller answers (roots/list, sampling/createMessage, elicitation/create). */
export type ServerRequestHandler = (
  method: string,
  params: JsonObject | undefined,
  ctx: { readonly signal: AbortSignal; readonly key?: string },
) => Promise<unknown>;

/**
 * Who answers the server's requests that cannot be tied to one of several requests in flight (see
 * {@link RequestOptions.onRequest}): `party` names who the request is made for (compared by identity, e.g.
 * the client session a proxy serves); `onRequest` answers such a request on that party's behalf.
 */
export interface UnattributedAsks {
  readonly party: unknown;
  readonly onRequest: ServerRequestHandler;
}

/** Options of {@link connect} about the protocol (the transport's own options are in {@link ConnectOptions}). */
export interface ClientOptions {
  /** Sent as `clientInfo`; default `{ name: "mcpbin-client", version: "0.1.0" }`. */
  readonly clientInfo?: Implementation;
  /**
   * Which era to speak: `"auto"` (default) probes with `server/discover` and falls back to `initialize`
   * on any error or no answer (MCP 2026-07-28 basic/versioning "Backward Compatibility with Initialization-Based Versions"); `"modern"` only 2026-07-28; `"legacy"` only `initialize`
   * (at the newest legacy version the server accepts).
   */
  readonly era?: "auto" | "modern" | "legacy";
  /** Time limit of each request, ms (default 60000; 0 = none); `callTool` may set its own. */
  readonly timeoutMs?: number;
  /** Time limit of the handshake, ms (default 10000; 0 = none); the `server/discover` probe gets at most 5000 of it (5000 when there is no limit). */
  readonly startTimeoutMs?: number;
  /** Client capabilities declared (default `{}`); add `roots`, `sampling`, `elicitation` when `onRequest` answers them. */
  readonly capabilities?: JsonObject;
  /**
   * Answers the server's requests other than `ping` (answered here) that no request in flight answers
   * (see {@link RequestOptions.onRequest}); without it they get -32601 (-32603 when several requests in
   * flight could have caused one).
   */
  readonly onRequest?: ServerRequestHandler;
  /**
   * Whether an accepted form elicitation's answer (`elicitation/create`, from `onRequest` or a request's own
   * handler, in either era) is completed with the `requestedSchema`'s defaults for the fields it leaves out
   * (SEP-1034: a client pre-populates form fields with them); default true. A relay whose client in front
   * shows the form itself (`mcpbin proxy`, `upstreams`) passes its answers on as they are: false.
   */
  readonly elicitationDefaults?: boolean;
  /** Every notification the server sends (after the client's own handling of progress and list_changed). */
  readonly onNotification?: (method: string, params: JsonObject | undefined) => void;
}

/** Options of one tool call. */
export interface CallOptions {
  /** Aborting it sends `notifications/cancelled` for the call and rejects with OutboundError "cancelled". */
  readonly signal?: AbortSignal;
  /** Called per `notifications/progress` of this call (a progress token is sent only when this is given). */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Time limit of this call, ms; default the connection's `timeoutMs`; 0 = none. */
  readonly timeoutMs?: number;
  /** More `_meta` for the request (e.g. `traceparent`); the protocol's own keys are set by the client. */
  readonly meta?: JsonObject;
  /** Answers the server's requests this call caused (instead of the connection's `onRequest`); see {@link RequestOptions}. */
  readonly onRequest?: ServerRequestHandler;
  /** Answers the server's requests that cannot be tied to one call; see {@link RequestOptions}. */
  readonly unattributed?: UnattributedAsks;
  /** Gets the log messages (`notifications/message`) that arrive while this call is in flight; see {@link RequestOptions}. */
  readonly onLog?: RequestOptions["onLog"];
  /** 2026-07-28: the client capabilities this call declares; see {@link RequestOptions}. */
  readonly capabilities?: JsonObject;
  /** Who the call is made for (e.g. the client session a proxy serves); see {@link RequestOptions}. */
  readonly party?: unknown;
  /** Whether someone hears this call's log messages now; see {@link RequestOptions}. */
  readonly listening?: () => boolean;
}

/** Options of one request. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Time limit, ms; default the connection's `timeoutMs`; 0 = none. */
  readonly timeoutMs?: number;
  /**
   * Answers the server's requests (roots/list, sampling, elicitation) that this request caused. A legacy
   * server's request names no request of ours, so it is tied to one thus, in order:
   * 1. it came on this request's own reply stream (Streamable HTTP: the SDKs send a tool's asks on its
   *    POST's SSE stream, their `relatedRequestId`);
   * 2. its `_meta.progressToken` is this request's progress token;
   * 3. this is the only request with an `onRequest` in flight.
   * Otherwise (stdio, several such requests in flight) it cannot be tied to one: it goes to the
   * {@link unattributed} handler of the oldest of them when they all give one for the same party, else
   * to the connection's `onRequest`, else the server gets -32603 saying it could not be attributed.
   * (A 2026-07-28 server sends no requests: its asks are `input_required` results of the request itself.)
   */
  readonly onRequest?: ServerRequestHandler;
  /** Answers the server's requests that cannot be tied to one request; see {@link onRequest}. */
  readonly unattributed?: UnattributedAsks;
  /** Gets the `notifications/message` params this request caused (tied to it as `onRequest` says, without the `_meta` step; untied ones reach only `onNotification`). */
  readonly onLog?: (params: JsonObject) => void;
  /** 2026-07-28: the client capabilities this request declares (default the connection's), e.g. those of the client a proxy fronts. */
  readonly capabilities?: JsonObject;
  /**
   * Who the request is made for, compared by identity (e.g. the client session a proxy serves; default
   * `unattributed.party`, else the request alone). A server's request that is not tied to one request by its
   * stream or progress token goes to a request of ours only when every request that could have caused it,
   * those in flight and those ended in the last {@link import("./ask-routes.ts").LATE_MS}, is made for one party: a late ask of a
   * finished call is never guessed onto another party's call. An untied log message goes to the requests in
   * flight when they are all made for one party.
   */
  readonly party?: unknown;
  /**
   * False while no one hears this request's log messages (a proxy's call parked between 2026-07-28 rounds):
   * it then neither takes an untied log message nor keeps one from the request that can.
   */
  readonly listening?: () => boolean;
}
