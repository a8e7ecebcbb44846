/** @module The Streamable HTTP endpoint as a fetch handler, `(Request) => Promise<Response>`: both eras, Origin/Host and token checks, limits, sessions; serveHttp and mcpHandler() share it. */
import type { Registry } from "../server/registry.ts";
import type { Session } from "../server/dispatcher.ts";
import { ResourceServer } from "../auth/http.ts";
import type { AuthInfo } from "../shared/auth.ts";
import { logLine } from "../runtime/log-name.ts";
import { HttpGuard } from "./http-guard.ts";
import { isLoopback, type ResolvedHttpOptions } from "./http-options.ts";
import { LegacySessions, type LegacySession } from "./http-sessions.ts";
import { UnreadAnswers } from "./http-unread.ts";
import { Exchanges } from "./http-exchanges.ts";
import { pathOf } from "./http-request.ts";
import { isChangeLine, MemoryFeed } from "./change-feed.ts";
import { feedChanges } from "./feed-sources.ts";
import { GetStreams } from "./get-streams.ts";
import { StreamEvents } from "./stream-events.ts";
import { scaleOut } from "./scale-out.ts";
import { StoreUnavailableError } from "../state/redis.ts";
import { finish, plain, type Endpoint, type HttpCall, type TimeoutControl } from "./http-endpoint.ts";
import { post } from "./http-post.ts";
import { endSession, getStream } from "./http-session-requests.ts";

export type { TimeoutControl } from "./http-endpoint.ts";

/** The MCP endpoint of one server as a fetch handler, plus what a shutdown needs. */
export interface HttpHandler {
  /**
   * Answers one HTTP request (MCP basic/transports, Streamable HTTP). With `routes`, `/healthz` is the
   * health check and only `o.path` is the endpoint (404 elsewhere); without, every request is for the endpoint.
   * @param req - the request.
   * @param server - the Bun server that received it, to lift its idle timeout during a long call (optional).
   * @returns the response (JSON, SSE stream, 202, or an error status).
   */
  handle(req: Request, server?: TimeoutControl): Promise<Response>;
  /** From now on `/healthz` says draining (503) while requests are still served. */
  announceDrain(): void;
  /** From now on, requests get 503 and `/healthz` says draining. */
  drain(): void;
  /** Resolves when no request is in flight. */
  idle(): Promise<void>;
  /** Aborts every call in flight, in every session. */
  abortAll(reason: string): void;
  /** Ends every legacy session and stops their sweeper. */
  close(): void;
  /** The endpoint's URL once bound (`serve()`): the OAuth resource identifier when `http.auth.resource` is not set. */
  bound(url: string): void;
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
      : // An application's handler (routes false) is not bound by us: its resource must be configured.
        new ResourceServer(o.auth, { path: o.path, loopbackOnly: routes && isLoopback(o.host) }, registry, (t) =>
          guard.isStaticToken(t),
        );
  // Legacy GET streams read one feed of changes; a session's own lines tied to no request join it too
  // (its list and subscription lines are the feed's already: dropped here, sent once by the feed).
  // With Redis (http.redis), the feed and the legacy sessions are every replica's (src/transport/scale-out.ts).
  const scale = o.redis ? scaleOut(o.redis, registry.options.name, o, undefined, registry) : undefined;
  let ready: Promise<void> | undefined = scale
    ? scale.ready
        .then(() => scale.sessions.start(sessions, owners))
        .then(() => scale.posts.start(streamEvents))
        .then(() => {
          ready = undefined;
        })
    : undefined;
  const feed = scale?.feed ?? new MemoryFeed(o.eventsTotal);
  const stopFeed = feedChanges(registry, feed);
  const streamEvents = new StreamEvents(o.eventsPerStream, o.eventsTotal, 60_000);
  const streams = new GetStreams(feed, streamEvents, {
    retryMs: o.retryMs,
    keepAliveMs: o.keepAliveMs,
    ...(scale ? { remote: scale.posts } : {}),
  });
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
  let draining = false;
  let leaving = false; // /healthz says draining, requests still served
  // One access-log line and in-flight accounting per request (src/transport/http-exchanges.ts).
  const exchanges = new Exchanges(o.accessLog);
  const e: Endpoint = {
    registry,
    o,
    rs,
    sessions,
    owners,
    modernActive,
    unread,
    streams,
    streamEvents,
    exchanges,
    scale,
  };

  async function route(req: Request, server?: TimeoutControl): Promise<Response> {
    const c: HttpCall = {
      endpoint: e,
      req,
      server,
      exchange: exchanges.begin(req),
      path: pathOf(req.url),
      headers: new Headers(),
      caller: undefined,
    };
    const prm = rs?.metadata(req, c.path);
    if (prm) {
      finish(c, prm.status);
      return prm;
    }
    if (routes) {
      if (c.path === "/healthz") return draining || leaving ? plain(c, 503, "draining") : plain(c, 200, "ok");
      if (c.path !== o.path) return plain(c, 404, "Not Found");
    }
    const why = guard.forbidden(req);
    if (why) return plain(c, 403, `Forbidden: ${why}`);
    if (req.method === "OPTIONS") {
      finish(c, 204);
      return guard.preflight(req);
    }
    let caller: AuthInfo | undefined;
    if (rs) {
      const r = await rs.authenticate(req);
      if (r instanceof Response) {
        finish(c, r.status);
        return r;
      }
      caller = r;
    } else {
      const challenge = guard.unauthorized(req);
      if (challenge)
        return plain(c, 401, "Unauthorized: a valid bearer token is required", { "www-authenticate": challenge });
    }
    if (draining)
      return plain(c, 503, "Service Unavailable: the server is shutting down", {
        connection: "close",
        "retry-after": "1",
      });
    const call: HttpCall = { ...c, caller };
    try {
      if (scale) {
        // A session another replica created (or changed) is read from the store before the request is handled.
        if (ready) await ready;
        const sid = req.headers.get("mcp-session-id");
        if (sid !== null && !sessions.get(sid)) await scale.sessions.adopt(sid, sessions, owners);
        else if (sid !== null) scale.sessions.touch(sid); // in use: kept in the store past sessionIdleMs
      }
      if (req.method === "POST") return await post(call);
      if (req.method === "DELETE") return endSession(call);
      if (req.method === "GET") return await getStream(call);
    } catch (err) {
      // Redis down or unreachable (http.redis): the shared sessions cannot be read or written; say so, briefly.
      if (err instanceof StoreUnavailableError) {
        logLine(`http request failed: ${err.message}`);
        return plain(c, 503, "Service Unavailable: the shared session store (http.redis) did not answer", {
          "retry-after": "5",
        });
      }
      logLine(`http request failed: ${(err as Error)?.stack ?? err}`);
      return plain(c, 500, "Internal Server Error");
    }
    return plain(c, 405, "Method Not Allowed: POST one JSON-RPC message", { allow: "GET, POST, DELETE, OPTIONS" });
  }

  return {
    // CORS in one place, on every answer (errors, 202s and SSE streams included): a browser client
    // can read why it was refused (401's WWW-Authenticate, 404's expired session, 413, 415, …).
    handle: async (req, server) => {
      const res = await route(req, server);
      guard.cors(req, res.headers);
      return res;
    },
    announceDrain: () => {
      leaving = true;
    },
    drain: () => {
      draining = true;
      streams.endAll();
    },
    idle: () => exchanges.idle(),
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
    bound: (url) => rs?.bind(url),
  };
}
