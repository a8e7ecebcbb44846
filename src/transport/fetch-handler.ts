/** @module The Streamable HTTP endpoint as a fetch handler, `(Request) => Promise<Response>`: both eras, Origin/Host and token checks, limits, sessions; serveHttp and mcpHandler() share it. */
import {
  checkEnvelope,
  ErrorCode,
  errorLine,
  RpcError,
  type Message,
  type Reply,
  type RequestId,
} from "../protocol/jsonrpc.ts";
import { checkSupported, META, metaOf, readClaim } from "../protocol/meta.ts";
import { LEGACY_VERSIONS, MODERN_VERSION } from "../protocol/versions.ts";
import type { RequestExtras } from "../server/context.ts";
import { Session } from "../server/dispatcher.ts";
import type { Registry } from "../server/registry.ts";
import { ResourceServer } from "../auth/http.ts";
import type { AuthInfo } from "../shared/auth.ts";
import { HttpGuard } from "./http-guard.ts";
import { isLoopback, type ResolvedHttpOptions } from "./http-options.ts";
import { acceptsJson, acceptsSse, answer, errorCodeOf, Notes, rpcErrorResponse } from "./http-reply.ts";
import { headerMismatch, versionMismatch } from "./http-headers.ts";
import { clientOf, LegacySessions, type LegacySession } from "./http-sessions.ts";
import { UnreadAnswers } from "./http-unread.ts";
import { readJsonBody } from "./http-body.ts";
import { logLine } from "../runtime/log-name.ts";
import { Exchanges, type Exchange } from "./http-exchanges.ts";
import { bearerOf, methodForLog, ownerOf, pathOf } from "./http-request.ts";
import { isChangeLine, MemoryFeed } from "./change-feed.ts";
import { feedChanges } from "./feed-sources.ts";
import { GetStreams } from "./get-streams.ts";
import { StreamEvents } from "./stream-events.ts";
import { scaleOut } from "./scale-out.ts";
import { paramHeaders, paramMismatch } from "./param-headers.ts";

/** What the handler may ask of the server that received the request (Bun's `Server`): lifting its idle timeout for a long call. */
export interface TimeoutControl {
  timeout(req: Request, seconds: number): void;
  /** The peer's address (the per-client session quota). */
  requestIP?(req: Request): { readonly address: string } | null;
}

/** The MCP endpoint of one server as a fetch handler, plus what a shutdown needs. */
export interface HttpHandler {
  /**
   * Answers one HTTP request (MCP basic/transports, Streamable HTTP). With `routes`, `/healthz` is the
   * health check and only `o.path` is the endpoint (404 elsewhere); without, every request is for the endpoint.
   * @param req - the request.
   * @param srv - the Bun server that received it, to lift its idle timeout during a long call (optional).
   * @returns the response (JSON, SSE stream, 202, or an error status).
   */
  handle(req: Request, srv?: TimeoutControl): Promise<Response>;
  /** From now on, requests get 503 and `/healthz` says draining. */
  drain(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
  /** Aborts every call in flight, in every session. */
  abortAll(reason: string): void;
  /** Ends every legacy session and stops their sweeper. */
  close(): void;
}

/**
 * Makes the HTTP handler of a registry.
 * @param registry - the server.
 * @param o - resolved HTTP options (token, origins, hosts, limits, sessions, access log).
 * @param routes - answer `/healthz` and 404 other paths than `o.path` (the standalone server); false when
 *   an application routes to the handler itself.
 * @returns the handler.
 */
export function createHttpHandler(registry: Registry, o: ResolvedHttpOptions, routes: boolean): HttpHandler {
  const guard = new HttpGuard(o);
  // OAuth 2.1 (src/auth/): metadata, token verification and step-up, when http.auth is set.
  const rs =
    o.auth === undefined
      ? undefined
      : new ResourceServer(o.auth, { path: o.path, loopbackOnly: isLoopback(o.host) }, registry, (t) =>
          guard.isStaticToken(t),
        );
  // Legacy GET streams read one feed of changes; a session's own lines tied to no request join it too
  // (its list and subscription lines are the feed's already: dropped here, sent once by the feed).
  // With Redis (http.redis), the feed and the legacy sessions are every replica's (src/transport/scale-out.ts).
  const scale = o.redis ? scaleOut(o.redis, registry.options.name, o) : undefined;
  let ready: Promise<void> | undefined = scale
    ? scale.ready
        .then(() => scale.sessions.start(sessions, owners))
        .then(() => {
          ready = undefined;
        })
    : undefined;
  const feed = scale?.feed ?? new MemoryFeed(o.eventsTotal);
  const stopFeed = feedChanges(registry, feed);
  const streamEvents = new StreamEvents(o.eventsPerStream, o.eventsTotal, 60_000);
  const streams = new GetStreams(feed, streamEvents, { retryMs: o.retryMs, keepAliveMs: o.keepAliveMs });
  const sessions = new LegacySessions(
    registry,
    o.sessionIdleMs,
    o.maxSessions,
    (sid, line) => void (isChangeLine(line) || feed.append({ topic: "session", sid, line })),
    (sid) => streams.endSession(sid),
    o.maxSessionsPerClient,
  );
  const modernActive = new Set<Session>();
  const unread = new UnreadAnswers(o.writeTimeoutMs, o.maxUnsentBytes);
  // A legacy session belongs to the OAuth caller that opened it: another subject's token cannot use its id.
  const owners = new WeakMap<LegacySession, string>();
  const mine = (s: LegacySession | undefined, caller: AuthInfo | undefined) =>
    s !== undefined && (owners.get(s) ?? "") === ownerOf(caller) ? s : undefined;
  let draining = false;
  // One access-log line and in-flight accounting per request (src/transport/http-exchanges.ts).
  const exchanges = new Exchanges(o.accessLog);
  const begin = (req: Request): Exchange => exchanges.begin(req);
  const finish = (x: Exchange, path: string, status: number) => exchanges.finish(x, path, status);
  const idle = () => exchanges.idle();

  async function route(req: Request, srv?: TimeoutControl): Promise<Response> {
    const x = begin(req);
    const path = pathOf(req.url);
    const plain = (status: number, text: string, headers?: Record<string, string>) => {
      finish(x, path, status);
      return new Response(text + "\n", {
        status,
        headers: { "content-type": "text/plain; charset=utf-8", ...headers },
      });
    };
    const prm = rs?.metadata(req, path);
    if (prm) {
      finish(x, path, prm.status);
      return prm;
    }
    if (routes) {
      if (path === "/healthz") return draining ? plain(503, "draining") : plain(200, "ok");
      if (path !== o.path) return plain(404, "Not Found");
    }
    const why = guard.forbidden(req);
    if (why) return plain(403, `Forbidden: ${why}`);
    if (req.method === "OPTIONS") {
      finish(x, path, 204);
      return guard.preflight(req);
    }
    let caller: AuthInfo | undefined;
    if (rs) {
      const r = await rs.authenticate(req);
      if (r instanceof Response) {
        finish(x, path, r.status);
        return r;
      }
      caller = r;
    } else {
      const challenge = guard.unauthorized(req);
      if (challenge)
        return plain(401, "Unauthorized: a valid bearer token is required", { "www-authenticate": challenge });
    }
    if (draining)
      return plain(503, "Service Unavailable: the server is shutting down", {
        connection: "close",
        "retry-after": "1",
      });
    const headers = new Headers();
    try {
      if (scale) {
        // A session another replica created (or changed) is read from the store before the request is handled.
        if (ready) await ready;
        const sid = req.headers.get("mcp-session-id");
        if (sid !== null && !sessions.get(sid)) await scale.sessions.adopt(sid, sessions, owners);
      }
      if (req.method === "POST") return await post(req, srv, x, path, headers, caller);
      if (req.method === "DELETE") return del(req, x, path, headers, caller);
      if (req.method === "GET") return await get(req, srv, x, path, headers, caller);
    } catch (e) {
      logLine(`http request failed: ${(e as Error)?.stack ?? e}`);
      return plain(500, "Internal Server Error");
    }
    return plain(405, "Method Not Allowed: POST one JSON-RPC message", { allow: "GET, POST, DELETE, OPTIONS" });
  }

  /**
   * A legacy session's GET stream (MCP 2025-03-26+ basic/transports, listening for messages from the
   * server). Without a session (2026-07-28 has no GET stream) it is 405, as that revision says.
   */
  async function get(
    req: Request,
    srv: TimeoutControl | undefined,
    x: Exchange,
    path: string,
    headers: Headers,
    caller: AuthInfo | undefined,
  ): Promise<Response> {
    const sid = req.headers.get("mcp-session-id");
    const plain = (status: number, text: string, more?: Record<string, string>) => {
      finish(x, path, status);
      return new Response(text + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8", ...more } });
    };
    if (sid === null || req.headers.get("mcp-protocol-version")?.trim() === MODERN_VERSION) {
      return plain(
        405,
        "Method Not Allowed: GET opens a legacy session's stream (send Mcp-Session-Id); POST one JSON-RPC message",
        { allow: "GET, POST, DELETE, OPTIONS" },
      );
    }
    if (!acceptsSse(req)) return plain(406, "Not Acceptable: a GET stream is text/event-stream");
    const s = mine(sessions.get(sid), caller);
    if (!s) {
      finish(x, path, 404);
      return rpcErrorResponse(
        404,
        null,
        ErrorCode.InvalidRequest,
        "Session not found: it expired or was ended; send initialize again",
        headers,
      );
    }
    // The stream lives until the client or the server ends it: Bun's idle timeout must not cut it, and it
    // does not hold a shutdown (draining ends it; the client resumes elsewhere after `retry`).
    srv?.timeout(req, 0);
    const res = await streams.open(req, s);
    for (const [k, v] of headers) res.headers.set(k, v);
    finish(x, path, res.status);
    return res;
  }

  function del(req: Request, x: Exchange, path: string, headers: Headers, caller: AuthInfo | undefined): Response {
    const sid = req.headers.get("mcp-session-id");
    const status =
      sid === null
        ? 400
        : mine(sessions.get(sid), caller) && sessions.end(sid, "The session was ended by the client")
          ? 204
          : 404;
    if (status === 204) void scale?.sessions.remove(sid!);
    finish(x, path, status);
    return new Response(null, { status, headers });
  }

  async function post(
    req: Request,
    srv: TimeoutControl | undefined,
    x: Exchange,
    path: string,
    headers: Headers,
    caller: AuthInfo | undefined,
  ): Promise<Response> {
    const fail = (status: number, id: RequestId | null, code: number, message: string, data?: unknown) => {
      finish(x, path, status);
      return rpcErrorResponse(status, id, code, message, headers, data);
    };
    // Content type, Accept, size and deadline, then one JSON parse (src/transport/http-body.ts).
    const body = await readJsonBody(req, o, headers, srv);
    if ("status" in body) return fail(body.status, null, body.code, body.message);
    const { value, deadline } = body;
    const sid = req.headers.get("mcp-session-id");
    if (Array.isArray(value)) {
      x.mcpMethod = "batch";
      if (sid === null)
        return fail(
          400,
          null,
          ErrorCode.InvalidRequest,
          "Invalid Request: JSON-RPC batches are only accepted on a session negotiated at 2025-03-26",
        );
      const s = mine(sessions.get(sid), caller);
      if (!s)
        return fail(
          404,
          null,
          ErrorCode.InvalidRequest,
          "Session not found: it expired or was ended; send initialize again",
        );
      return run(s.session.handleParsed(value, extrasOf(s.id)), undefined, s, false, new Notes());
    }
    const env = checkEnvelope(value);
    if (env.kind === "invalid") return fail(400, env.id, env.error.code, env.error.message);
    if (env.kind === "response") {
      x.mcpMethod = "response";
      // An answer to a request this server sent on a legacy session's stream (src/server/outbound.ts).
      if (sid !== null) mine(sessions.get(sid), caller)?.session.outbound.deliver(env.response);
      finish(x, path, 202);
      return new Response(null, { status: 202, headers });
    }
    const msg = env.message;
    x.mcpMethod = methodForLog(msg.method);
    const stepUp = rs?.stepUp(req, msg.method, msg.params, caller);
    if (stepUp) {
      finish(x, path, stepUp.status);
      return stepUp;
    }
    // While unread answers (those being produced included) would hold more than http.maxUnsentBytes, no new request starts.
    const leave = msg.id !== undefined ? await unread.enter() : undefined;
    try {
      return await dispatch(msg);
    } finally {
      leave?.();
    }

    /** The message to its era: 2026-07-28 when it carries the claim, else a legacy session's. */
    function dispatch(msg: Message): Promise<Response> | Response {
      const meta = metaOf(msg.params);
      // With the claim even initialize is a stateless request (of a method 2026-07-28 removed), never a handshake.
      if (meta !== undefined && META.protocolVersion in meta)
        return modern(msg, msg.params as Record<string, unknown>, meta);
      if (msg.method !== "initialize" && req.headers.get("mcp-protocol-version")?.trim() === MODERN_VERSION) {
        // The header names the stateless revision but the body has no claim: a malformed modern request, not legacy traffic.
        if (msg.id !== undefined)
          return fail(
            400,
            msg.id,
            ErrorCode.InvalidParams,
            `Invalid params: _meta["${META.protocolVersion}"] is required on ${MODERN_VERSION} requests`,
          );
        // A notification needs no claim (2026-07-28 Streamable HTTP: only requests carry one); the header
        // identifies it. Without a session it has nothing to act on, as in modern(): accepted, 202.
        if (sid === null) {
          finish(x, path, 202);
          return new Response(null, { status: 202, headers });
        }
      }
      return legacy(msg, sid);
    }

    /** What the pipeline's handlers may read of this HTTP request. */
    function extrasOf(sessionId: string | undefined): RequestExtras {
      const token = bearerOf(req);
      const auth = caller ?? (token !== undefined ? { token } : undefined);
      return {
        http: { headers: req.headers },
        ...(sessionId !== undefined ? { session: { id: sessionId } } : {}),
        ...(auth !== undefined ? { auth } : {}),
      };
    }

    /** 2026-07-28: stateless, one Session per request; only the headers are checked here against the body, the pipeline checks the claim again. */
    function modern(
      msg: Message,
      params: Record<string, unknown>,
      meta: Record<string, unknown>,
    ): Promise<Response> | Response {
      const id = msg.id ?? null;
      const claim = readClaim(meta);
      if (claim instanceof RpcError) return fail(400, id, claim.code, claim.message);
      const pv = versionMismatch(req, claim.version);
      if (pv) return fail(400, id, ErrorCode.HeaderMismatch, pv);
      const unsupported = checkSupported(claim.version);
      if (unsupported) return fail(400, id, unsupported.code, unsupported.message, unsupported.data);
      const mismatch = headerMismatch(req, msg, params);
      if (mismatch) return fail(400, id, ErrorCode.HeaderMismatch, mismatch);
      // Custom headers from tool parameters (x-mcp-header): each must agree with the arguments.
      const tool =
        msg.method === "tools/call" && typeof params.name === "string" ? registry.tools.get(params.name) : undefined;
      const params_ = tool && paramHeaders(tool.inputSchema);
      const pm = params_ && params_.length > 0 ? paramMismatch(req, params.arguments, params_) : undefined;
      if (pm) return fail(400, id, ErrorCode.HeaderMismatch, pm);
      // initialize is gone from 2026-07-28: with the modern claim it is an unknown method, not a handshake.
      if (msg.method === "initialize")
        return fail(
          404,
          id,
          ErrorCode.MethodNotFound,
          `Method not found: initialize (protocol version ${MODERN_VERSION})`,
        );
      if (msg.id === undefined) {
        // A stateless server has no other request to cancel: the client cancels by closing the connection.
        finish(x, path, 202);
        return new Response(null, { status: 202, headers });
      }
      const notes = new Notes();
      const session = new Session(registry, notes.push);
      const reply = session.handleMessage(msg, extrasOf(undefined));
      if (typeof reply !== "string" && reply !== undefined) {
        modernActive.add(session);
        reply.then(() => modernActive.delete(session));
      }
      return run(reply, msg.id, undefined, true, notes, session, msg.method === "subscriptions/listen");
    }

    /** 2025-03-26 … 2025-11-25: a session per Mcp-Session-Id, issued at initialize. */
    function legacy(msg: Message, sid: string | null): Promise<Response> | Response {
      const id = msg.id ?? null;
      if (msg.method === "initialize" && msg.id !== undefined) {
        const s = sessions.create(
          undefined,
          clientOf(
            req,
            srv?.requestIP?.(req)?.address,
            o.token,
            caller?.subject === undefined ? undefined : ownerOf(caller),
          ),
        );
        owners.set(s, ownerOf(caller));
        const line = s.session.handleMessage(msg, extrasOf(undefined)) as string;
        if (errorCodeOf(line) === undefined) {
          if (!sessions.add(s))
            return fail(
              503,
              id,
              ErrorCode.InternalError,
              "Service Unavailable: too many sessions in use (http.maxSessions); retry later",
            );
          headers.set("mcp-session-id", s.id);
          // Shared: in the store before the client hears of it, so its next request may land on any replica.
          if (scale)
            return scale.sessions.save(s, ownerOf(caller)).then(() => run(line, msg.id, undefined, false, new Notes()));
        }
        return run(line, msg.id, undefined, false, new Notes());
      }
      if (sid === null)
        return fail(
          400,
          id,
          ErrorCode.InvalidRequest,
          `Bad Request: the Mcp-Session-Id header is required (send initialize first, or use protocol version ${MODERN_VERSION} with params._meta)`,
        );
      const s = mine(sessions.get(sid), caller);
      if (!s)
        return fail(
          404,
          id,
          ErrorCode.InvalidRequest,
          "Session not found: it expired or was ended; send initialize again",
        );
      const pv = req.headers.get("mcp-protocol-version");
      if (pv !== null && !(LEGACY_VERSIONS as readonly string[]).includes(pv.trim())) {
        return fail(
          400,
          id,
          ErrorCode.InvalidRequest,
          `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(pv)} on a legacy session`,
        );
      }
      const notes = new Notes();
      if (msg.id !== undefined && !s.sinks.has(msg.id)) s.sinks.set(msg.id, notes.push);
      const answered = run(s.session.handleMessage(msg, extrasOf(s.id)), msg.id, s, false, notes);
      // What the session asked for (subscriptions, log level) reaches the store and the other replicas before the answer.
      if (scale && STATEFUL.has(msg.method))
        return Promise.resolve(answered).then(async (r) => (await scale.sessions.save(s, owners.get(s) ?? ""), r));
      return answered;
    }

    /** Answers one dispatcher reply, with the request's timeout, disconnect handling and progress routing. */
    function run(
      reply: Reply,
      id: RequestId | undefined,
      s: LegacySession | undefined,
      isModern: boolean,
      notes: Notes,
      session?: Session,
      longLived = false,
    ): Promise<Response> | Response {
      const target = session ?? s?.session;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let timedOut = false;
      const cancel = (reason: string, why: "cancelled" | "timeout") => {
        if (id !== undefined) target?.cancel(id, reason, why);
      };
      // A legacy stream that became resumable outlives its connection (disconnection is not cancellation).
      let recorder: ReturnType<StreamEvents["open"]> | undefined;
      const onAbort = () => recorder === undefined && cancel("the client closed the connection", "cancelled");
      if (s) s.active++;
      const pending = typeof reply === "object";
      if (pending && id !== undefined) {
        // A subscriptions/listen stream lives until the client closes it: no request deadline.
        if (deadline !== Infinity && !longLived) {
          timer = setTimeout(
            () => ((timedOut = true), cancel("request timeout", "timeout")),
            Math.max(0, deadline - Date.now()),
          );
        }
        req.signal.addEventListener("abort", onAbort);
      }
      return answer(reply, {
        id: id ?? null,
        modern: isModern,
        sse: pending && id !== undefined && acceptsSse(req),
        headers,
        notes,
        abort: onAbort,
        ...(s && id !== undefined ? { resumable: () => (recorder = streamEvents.open(s.id)), retryMs: o.retryMs } : {}),
        unread: { answers: unread, what: id === undefined ? x.mcpMethod : `${x.mcpMethod} (id ${JSON.stringify(id)})` },
        done(status) {
          if (timer) clearTimeout(timer);
          req.signal.removeEventListener("abort", onAbort);
          if (s) {
            s.active--;
            s.lastSeen = Date.now();
            if (id !== undefined && s.sinks.get(id) === notes.push) s.sinks.delete(id);
          }
          finish(x, path, status);
        },
        // A batch (no single id) that settles with nothing held only notifications and responses: 202.
        cancelledLine:
          id === undefined
            ? undefined
            : () =>
                errorLine(
                  id,
                  new RpcError(
                    ErrorCode.InternalError,
                    timedOut
                      ? `The request timed out after ${o.requestTimeoutMs} ms (http.requestTimeoutMs)`
                      : "The request was cancelled",
                  ),
                ),
      });
    }
  }

  return {
    // CORS in one place, on every answer (errors, 202s and SSE streams included): a browser client
    // can read why it was refused (401's WWW-Authenticate, 404's expired session, 413, 415, …).
    handle: async (req, srv) => {
      const res = await route(req, srv);
      guard.cors(req, res.headers);
      return res;
    },
    drain: () => {
      draining = true;
      streams.endAll();
    },
    idle,
    abortAll(reason) {
      for (const s of sessions.all()) s.session.abortAll(reason);
      for (const s of modernActive) s.abortAll(reason);
    },
    close: () => {
      sessions.close();
      streams.close();
      stopFeed();
      feed.close();
      scale?.close();
    },
  };
}

/** Legacy methods that change what a session holds (shared sessions are written after them). */
const STATEFUL = new Set(["resources/subscribe", "resources/unsubscribe", "logging/setLevel"]);
