/** @module The 2026-07-28 step of a POST: the standard and x-mcp-header headers checked against the body, then one stateless session per request. */
import { ErrorCode, type Message } from "../protocol/jsonrpc.ts";
import { META } from "../protocol/meta.ts";
import { Session } from "../server/dispatcher.ts";
import { headerMismatch, versionMismatch } from "./http-headers.ts";
import { Notes } from "./http-sse.ts";
import { paramHeaders, paramMismatch } from "./param-headers.ts";
import { accepted, extrasOf, fail, type PostCall } from "./http-endpoint.ts";
import { run } from "./http-run.ts";

/**
 * A 2026-07-28 request (MCP 2026-07-28 basic/transports/streamable-http "Server Validation"): the pipeline judges
 * its claim (a refusal is 400 here, before any stream), the headers must agree with the body (-32020, 400), and it
 * runs in a session of its own. A notification needs no answer: a stateless server has no other request to cancel
 * (the client cancels by closing the connection), so it is accepted with 202.
 * @param c - the request, its body read.
 * @param msg - the message, whose `params._meta` carries the protocol-version claim.
 * @returns the response.
 */
export function modern(c: PostCall, msg: Message): Promise<Response> | Response {
  const { req, endpoint: e } = c;
  const id = msg.id ?? null;
  const params = msg.params as Record<string, unknown>;
  const notes = new Notes();
  const session = Session.stateless(e.registry, notes.push);
  // The claim is the pipeline's to judge; a malformed one is refused before its headers are compared with it.
  const refused = session.refusal(msg);
  if (refused?.code === ErrorCode.InvalidParams) return fail(c, 400, id, refused.code, refused.message);
  const claimed = (params._meta as Record<string, unknown>)[META.protocolVersion] as string;
  const pv = versionMismatch(req, claimed);
  if (pv) return fail(c, 400, id, ErrorCode.HeaderMismatch, pv);
  if (refused) return fail(c, 400, id, refused.code, refused.message, refused.data);
  const mismatch = headerMismatch(req, msg, params);
  if (mismatch) return fail(c, 400, id, ErrorCode.HeaderMismatch, mismatch);
  // Custom headers from tool parameters (x-mcp-header): each must agree with the arguments.
  const tool =
    msg.method === "tools/call" && typeof params.name === "string" ? e.registry.tools.get(params.name) : undefined;
  const annotated = tool && paramHeaders(tool.inputSchema);
  const pm = annotated && annotated.length > 0 ? paramMismatch(req, params.arguments, annotated) : undefined;
  if (pm) return fail(c, 400, id, ErrorCode.HeaderMismatch, pm);
  if (msg.id === undefined) return accepted(c);
  const reply = session.handleMessage(msg, extrasOf(c, undefined));
  if (typeof reply !== "string" && reply !== undefined) {
    e.modernActive.add(session);
    reply.then(() => e.modernActive.delete(session));
  }
  return run(c, reply, {
    id: msg.id,
    notes,
    modern: true,
    session,
    longLived: session.table.methods.get(msg.method)?.longLived === true,
  });
}
