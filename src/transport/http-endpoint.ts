/** @module What the steps of the HTTP handler share: the endpoint's parts, one request being answered, and the plain answers every step gives (text, JSON-RPC error, 202). */
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { RequestExtras } from "../server/context.ts";
import type { Session } from "../server/dispatcher.ts";
import type { Registry } from "../server/registry.ts";
import type { ResourceServer } from "../auth/http.ts";
import type { AuthInfo } from "../shared/auth.ts";
import type { ResolvedHttpOptions } from "./http-options.ts";
import type { LegacySession, LegacySessions } from "./http-sessions.ts";
import type { UnreadAnswers } from "./http-unread.ts";
import type { Exchange, Exchanges } from "./http-exchanges.ts";
import type { GetStreams } from "./get-streams.ts";
import type { StreamEvents } from "./stream-events.ts";
import type { ScaleOut } from "./scale-out.ts";
import { rpcErrorResponse } from "./http-reply.ts";
import { bearerOf, ownerOf } from "./http-request.ts";

/** What the handler may ask of the server that received the request (Bun's `Server`): lifting its idle timeout for a long call. */
export interface TimeoutControl {
  timeout(req: Request, seconds: number): void;
  /** The peer's address (the per-client session quota). */
  requestIP?(req: Request): { readonly address: string } | null;
}

/** The parts of one MCP endpoint that every step reads: made once by createHttpHandler. */
export interface Endpoint {
  readonly registry: Registry;
  readonly o: ResolvedHttpOptions;
  /** OAuth 2.1 (src/auth/), when http.auth is set. */
  readonly rs: ResourceServer | undefined;
  readonly sessions: LegacySessions;
  /** The OAuth caller that opened each legacy session (its owner key, {@link ownerOf}). */
  readonly owners: WeakMap<LegacySession, string>;
  /** The stateless (2026-07-28) sessions whose request is in flight, for a shutdown's abort. */
  readonly modernActive: Set<Session>;
  readonly unread: UnreadAnswers;
  readonly streams: GetStreams;
  readonly streamEvents: StreamEvents;
  readonly exchanges: Exchanges;
  /** The shared store and bus (http.redis), else undefined. */
  readonly scale: ScaleOut | undefined;
}

/** One HTTP request being answered. */
export interface HttpCall {
  /** The endpoint it came to: its options, sessions and streams. */
  readonly endpoint: Endpoint;
  readonly req: Request;
  /** The Bun server that received it, to lift its idle timeout during a long call (absent in a bare fetch handler). */
  readonly server: TimeoutControl | undefined;
  /** Its place among the answers being written, for the unread-answers bound. */
  readonly exchange: Exchange;
  readonly path: string;
  /** Headers every answer to it carries (Mcp-Session-Id once issued; CORS is added at the end). */
  readonly headers: Headers;
  /** The verified OAuth caller, with http.auth. */
  readonly caller: AuthInfo | undefined;
}

/** A POST whose body was read: its request deadline too (ms since the epoch; Infinity for none). */
export interface PostCall extends HttpCall {
  readonly deadline: number;
  /** The kind of request, whose answers' sizes the unread-answers bound remembers: method, and tool for tools/call. */
  readonly kind: string;
}

/** The legacy session `sid` names, when it exists and belongs to this request's caller (another subject's token cannot use it). */
export function sessionOf(c: HttpCall, sid: string | null): LegacySession | undefined {
  if (sid === null) return undefined;
  const s = c.endpoint.sessions.get(sid);
  return s !== undefined && (c.endpoint.owners.get(s) ?? "") === ownerOf(c.caller) ? s : undefined;
}

/** Logs the request as answered with `status`. */
export function finish(c: HttpCall, status: number): void {
  c.endpoint.exchanges.finish(c.exchange, c.path, status);
}

/** A plain-text answer (403, 404, 405, 406, 500, 503, …). */
export function plain(c: HttpCall, status: number, text: string, headers?: Record<string, string>): Response {
  finish(c, status);
  return new Response(text + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

/** A JSON-RPC error answered at the HTTP level, before dispatch. */
export function fail(
  c: HttpCall,
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): Response {
  finish(c, status);
  return rpcErrorResponse(status, id, code, message, c.headers, data);
}

/** 202 Accepted: a notification or a client's response, nothing to answer. */
export function accepted(c: HttpCall): Response {
  finish(c, 202);
  return new Response(null, { status: 202, headers: c.headers });
}

/** The answer to a request naming a session that does not exist (any more) or is not the caller's. */
export const NO_SESSION = "Session not found: it expired or was ended; send initialize again";

/** What the pipeline's handlers may read of this HTTP request. */
export function extrasOf(c: HttpCall, sessionId: string | undefined): RequestExtras {
  const token = bearerOf(c.req);
  const auth = c.caller ?? (token !== undefined ? { token } : undefined);
  return {
    http: { headers: c.req.headers },
    ...(sessionId !== undefined ? { session: { id: sessionId } } : {}),
    ...(auth !== undefined ? { auth } : {}),
  };
}
