/** @module A POST to the MCP endpoint as steps: the body read and parsed once, a batch or a client's response set apart, OAuth step-up, admission under the unread-answers bound, then the era's step. */
import { checkEnvelope, ErrorCode, type Message } from "../protocol/jsonrpc.ts";
import { META, metaOf } from "../protocol/meta.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import { readJsonBody } from "./http-body.ts";
import { Notes } from "./http-sse.ts";
import { methodForLog } from "./http-request.ts";
import {
  accepted,
  extrasOf,
  fail,
  finish,
  NO_SESSION,
  sessionOf,
  type HttpCall,
  type PostCall,
} from "./http-endpoint.ts";
import { legacy } from "./http-legacy.ts";
import { modern } from "./http-modern.ts";
import { run } from "./http-run.ts";

/**
 * One POST (MCP basic/transports, Streamable HTTP "Sending Messages to the Server").
 * @param c - the request.
 * @returns the response: JSON, an SSE stream, 202, or an error status.
 */
export async function post(c: HttpCall): Promise<Response> {
  // Content type, Accept, size and deadline, then the one JSON parse (src/transport/http-body.ts).
  const body = await readJsonBody(c.req, c.endpoint.o, c.headers, c.server);
  if ("status" in body) return fail(c, body.status, null, body.code, body.message);
  const { value, deadline } = body;
  if (Array.isArray(value)) return batch({ ...c, deadline, kind: "batch" }, value);
  const env = checkEnvelope(value);
  if (env.kind === "invalid") return fail(c, 400, env.id, env.error.code, env.error.message);
  if (env.kind === "response") {
    c.exchange.mcpMethod = "response";
    // An answer to a request this server sent on a legacy session's stream (src/server/outbound.ts).
    sessionOf(c, c.req.headers.get("mcp-session-id"))?.session.outbound.deliver(env.response);
    return accepted(c);
  }
  const msg = env.message;
  c.exchange.mcpMethod = methodForLog(msg.method);
  const p: PostCall = { ...c, deadline, kind: kindOf(c, msg) };
  const stepUp = p.endpoint.rs?.stepUp(p.req, msg.method, msg.params, p.caller);
  if (stepUp) {
    finish(p, stepUp.status);
    return stepUp;
  }
  // While unread answers (those being produced included) would hold more than http.maxUnsentBytes, no new request starts.
  const leave = msg.id !== undefined ? await p.endpoint.unread.enter(p.kind) : undefined;
  try {
    return await toEra(p, msg);
  } finally {
    leave?.();
  }
}

/** The kind of a request, as the unread-answers bound tells answers apart: its method, and a known tool's name. */
function kindOf(c: HttpCall, msg: Message): string {
  const name = (msg.params as { name?: unknown } | undefined)?.name;
  return msg.method === "tools/call" && typeof name === "string" && c.endpoint.registry.tools.has(name)
    ? `tools/call ${name}`
    : c.exchange.mcpMethod;
}

/** A JSON-RPC batch: only on a legacy session, which the pipeline checks was negotiated at 2025-03-26. */
function batch(p: PostCall, values: unknown[]): Promise<Response> | Response {
  p.exchange.mcpMethod = "batch";
  const sid = p.req.headers.get("mcp-session-id");
  if (sid === null)
    return fail(
      p,
      400,
      null,
      ErrorCode.InvalidRequest,
      "Invalid Request: JSON-RPC batches are only accepted on a session negotiated at 2025-03-26",
    );
  const s = sessionOf(p, sid);
  if (!s) return fail(p, 404, null, ErrorCode.InvalidRequest, NO_SESSION);
  return run(p, s.session.handleParsed(values, extrasOf(p, s.id)), {
    id: undefined,
    notes: new Notes(),
    modern: false,
    legacy: s,
  });
}

/** The message to its era: 2026-07-28 when it carries the claim (even `initialize`: never a handshake then), else a legacy session's. */
function toEra(p: PostCall, msg: Message): Promise<Response> | Response {
  const meta = metaOf(msg.params);
  if (meta !== undefined && META.protocolVersion in meta) return modern(p, msg);
  if (msg.method !== "initialize" && p.req.headers.get("mcp-protocol-version")?.trim() === MODERN_VERSION) {
    // The header names the stateless revision but the body has no claim: a malformed modern request, not legacy traffic.
    if (msg.id !== undefined)
      return fail(
        p,
        400,
        msg.id,
        ErrorCode.InvalidParams,
        `Invalid params: _meta["${META.protocolVersion}"] is required on ${MODERN_VERSION} requests`,
      );
    // A notification needs no claim (2026-07-28 Streamable HTTP: only requests carry one); the header
    // identifies it. Without a session it has nothing to act on, as in modern(): accepted, 202.
    if (p.req.headers.get("mcp-session-id") === null) return accepted(p);
  }
  return legacy(p, msg);
}
