/** @module The legacy step of a POST (2025-03-26 … 2025-11-25): initialize issues a session, every other message runs in the session its Mcp-Session-Id names. */
import { ErrorCode, type Message } from "../protocol/jsonrpc.ts";
import { LEGACY_VERSIONS, MODERN_VERSION } from "../protocol/versions.ts";
import { errorCodeOf } from "./http-reply.ts";
import { Notes } from "./http-sse.ts";
import { clientOf } from "./http-sessions.ts";
import { ownerOf } from "./http-request.ts";
import { extrasOf, fail, NO_SESSION, sessionOf, type PostCall } from "./http-endpoint.ts";
import { run } from "./http-run.ts";

/**
 * A legacy message (MCP 2025-11-25 basic/transports, "Session Management"): `initialize` makes a session and
 * names it in Mcp-Session-Id (in the shared store first, with http.redis); anything else needs that header
 * (400 without, 404 for a session that is gone) and a legacy MCP-Protocol-Version header when one is sent.
 * @param c - the request, its body read.
 * @param msg - the message.
 * @returns the response.
 */
export function legacy(c: PostCall, msg: Message): Promise<Response> | Response {
  if (msg.method === "initialize" && msg.id !== undefined) return initialize(c, msg);
  const { req, endpoint: e } = c;
  const id = msg.id ?? null;
  const sid = req.headers.get("mcp-session-id");
  if (sid === null)
    return fail(
      c,
      400,
      id,
      ErrorCode.InvalidRequest,
      `Bad Request: the Mcp-Session-Id header is required (send initialize first, or use protocol version ${MODERN_VERSION} with params._meta)`,
    );
  const s = sessionOf(c, sid);
  if (!s) return fail(c, 404, id, ErrorCode.InvalidRequest, NO_SESSION);
  const pv = req.headers.get("mcp-protocol-version");
  if (pv !== null && !(LEGACY_VERSIONS as readonly string[]).includes(pv.trim())) {
    return fail(
      c,
      400,
      id,
      ErrorCode.InvalidRequest,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(pv)} on a legacy session`,
    );
  }
  const notes = new Notes();
  if (msg.id !== undefined && !s.sinks.has(msg.id)) s.sinks.set(msg.id, notes.push);
  const answered = run(c, s.session.handleMessage(msg, extrasOf(c, s.id)), {
    id: msg.id,
    notes,
    modern: false,
    legacy: s,
  });
  // What the session asked for (subscriptions, log level: methods whose entry says changesSession) reaches the
  // store and the other replicas before the answer.
  const scale = e.scale;
  if (scale && s.session.table.methods.get(msg.method)?.changesSession === true)
    return Promise.resolve(answered).then(async (r) => (await scale.sessions.save(s, e.owners.get(s) ?? ""), r));
  return answered;
}

/** `initialize`: a new session, kept (and named in Mcp-Session-Id) when the handshake succeeds and there is room. */
function initialize(c: PostCall, msg: Message): Promise<Response> | Response {
  const { req, endpoint: e, caller } = c;
  const owner = ownerOf(caller);
  const s = e.sessions.create(
    undefined,
    clientOf(req, c.server?.requestIP?.(req)?.address, e.o.token, caller?.subject === undefined ? undefined : owner),
  );
  e.owners.set(s, owner);
  const line = s.session.handleMessage(msg, extrasOf(c, undefined)) as string;
  const answer = () => run(c, line, { id: msg.id, notes: new Notes(), modern: false });
  if (errorCodeOf(line) !== undefined) return answer();
  if (!e.sessions.add(s))
    return fail(
      c,
      503,
      msg.id ?? null,
      ErrorCode.InternalError,
      "Service Unavailable: too many sessions in use (http.maxSessions); retry later",
    );
  c.headers.set("mcp-session-id", s.id);
  // Shared: in the store before the client hears of it, so its next request may land on any replica.
  if (e.scale) return e.scale.sessions.save(s, owner).then(answer);
  return answer();
}
