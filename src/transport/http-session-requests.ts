/** @module The HTTP steps of a legacy session outside POST: GET opens its stream, DELETE ends it (MCP 2025-03-26 … 2025-11-25 basic/transports). */
import { ErrorCode } from "../protocol/jsonrpc.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import { rpcErrorResponse } from "./http-reply.ts";
import { acceptsSse } from "./http-sse.ts";
import { finish, NO_SESSION, plain, sessionOf, type HttpCall } from "./http-endpoint.ts";

/**
 * A legacy session's GET stream (MCP 2025-03-26+ basic/transports, listening for messages from the
 * server). Without a session (2026-07-28 has no GET stream) it is 405, as that revision says.
 * @param c - the request.
 * @returns the SSE stream, or why not (405, 406, 404).
 */
export async function getStream(c: HttpCall): Promise<Response> {
  const { req } = c;
  const sid = req.headers.get("mcp-session-id");
  if (sid === null || req.headers.get("mcp-protocol-version")?.trim() === MODERN_VERSION) {
    return plain(
      c,
      405,
      "Method Not Allowed: GET opens a legacy session's stream (send Mcp-Session-Id); POST one JSON-RPC message",
      { allow: "GET, POST, DELETE, OPTIONS" },
    );
  }
  if (!acceptsSse(req)) return plain(c, 406, "Not Acceptable: a GET stream is text/event-stream");
  const s = sessionOf(c, sid);
  if (!s) {
    finish(c, 404);
    return rpcErrorResponse(404, null, ErrorCode.InvalidRequest, NO_SESSION, c.headers);
  }
  // The stream lives until the client or the server ends it: Bun's idle timeout must not cut it, and it
  // does not hold a shutdown (draining ends it; the client resumes elsewhere after `retry`).
  c.server?.timeout(req, 0);
  const res = await c.endpoint.streams.open(req, s);
  for (const [k, v] of c.headers) res.headers.set(k, v);
  finish(c, res.status);
  return res;
}

/**
 * DELETE ends the caller's legacy session (and every replica's copy of it).
 * @param c - the request.
 * @returns 204, 404 for an unknown session, 400 without Mcp-Session-Id.
 */
export function endSession(c: HttpCall): Response {
  const sid = c.req.headers.get("mcp-session-id");
  const status =
    sid === null
      ? 400
      : sessionOf(c, sid) && c.endpoint.sessions.end(sid, "The session was ended by the client")
        ? 204
        : 404;
  if (status === 204) void c.endpoint.scale?.sessions.remove(sid!);
  finish(c, status);
  return new Response(null, { status, headers: c.headers });
}
