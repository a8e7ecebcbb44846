/** @module HTTP answers for one JSON-RPC reply: application/json, or an SSE stream when progress comes first; status codes per era. */
import { wellFormedLine } from "../protocol/well-formed.ts";
import { sseAnswer, type AnswerContext } from "./http-sse.ts";
import { ErrorCode, errorLine, RpcError, type Reply, type RequestId } from "../protocol/jsonrpc.ts";
import type { UnreadAnswers } from "./http-unread.ts";

const JSON_TYPE = "application/json";

/**
 * A JSON response.
 * @param body - one serialized JSON-RPC message.
 * @param status - the HTTP status.
 * @param headers - headers to send with it (CORS, Mcp-Session-Id); `content-type` is set here.
 * @param unread - where a large body's unread bytes are watched (write deadline, overall bound), and its name there.
 * @returns the response.
 */
export function jsonResponse(
  body: string,
  status: number,
  headers?: Headers,
  unread?: { readonly answers: UnreadAnswers; readonly what: string; readonly kind?: string },
): Response {
  const h = headers ?? new Headers();
  h.set("content-type", JSON_TYPE);
  const text = wellFormedLine(body);
  return new Response(unread ? unread.answers.body(text, unread.what, unread.kind) : text, { status, headers: h });
}

/**
 * A JSON-RPC error answered at the HTTP level, before dispatch (MCP 2026-07-28 basic/transports/streamable-http "Server Validation").
 * @param status - the HTTP status (400, 404, 406, 408, 413, 415, 503).
 * @param id - the request id when it could be read, else null.
 * @param code - the JSON-RPC error code.
 * @param message - one sentence for the client.
 * @param headers - headers to send with it.
 * @param data - optional `error.data`.
 * @returns the response.
 */
export function rpcErrorResponse(
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
  headers?: Headers,
  data?: unknown,
): Response {
  return jsonResponse(errorLine(id, new RpcError(code, message, data)), status, headers);
}

/**
 * The JSON-RPC error code of a response line made by the dispatcher.
 * @param line - a response line from `resultLine`/`errorLine`.
 * @returns the code, or undefined for a result.
 */
export function errorCodeOf(line: string): number | undefined {
  // Dispatcher lines are `{"jsonrpc":"2.0","id":…,"error":{"code":N,…` or `…,"result":…`.
  const i = line.indexOf(',"error":{"code":');
  if (i === -1) return undefined;
  const r = line.indexOf(',"result":');
  if (r !== -1 && r < i) return undefined;
  return Number.parseInt(line.slice(i + 17), 10);
}

/**
 * HTTP status for a dispatcher reply (MCP 2026-07-28 basic/transports/streamable-http "Server Validation"). Parse and envelope errors are 400 in every
 * era. Modern: -32601 is 404 and -32020/-32021/-32022 are 400; other errors (an unknown tool's
 * -32602 included) stay in-band with 200, as the official SDK does. Legacy: in-band 200. A batch's
 * array of responses is 200.
 * @param line - the response line.
 * @param modern - whether the request was a 2026-07-28 one.
 * @returns the HTTP status.
 */
export function statusFor(line: string, modern: boolean): number {
  // A batch's answer is an array of responses: the batch itself was taken (JSON-RPC 2.0 §6), whatever
  // each element says; only a batch refused as a whole is one error object.
  if (line.startsWith("[")) return 200;
  const code = errorCodeOf(line);
  if (code === undefined) return 200;
  if (code === ErrorCode.ParseError || code === ErrorCode.InvalidRequest) return 400;
  if (!modern) return 200;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
  )
    return 400;
  return 200;
}

/**
 * @param req - the HTTP request.
 * @returns true when its Accept header admits JSON (a missing header admits anything).
 */
export function acceptsJson(req: Request): boolean {
  const a = req.headers.get("accept");
  return a === null || a === "" || a.includes(JSON_TYPE) || a.includes("application/*") || a.includes("*/*");
}

/**
 * Turns a dispatcher reply into an HTTP response (MCP basic/transports, Streamable HTTP: sending
 * messages to the server). A result that is ready, or one that arrives before any notification, is
 * one `application/json` body. When the request emits a notification first (progress) and the client
 * accepts SSE, the response becomes an SSE stream: the notifications, then the result, then the end.
 * Without SSE in Accept the notifications are dropped.
 * @param reply - what the dispatcher returned for the message.
 * @param c - the request's context (id, era, headers, notifications, completion callbacks).
 * @returns the response; for SSE it streams until the result is written.
 */
export async function answer(reply: Reply, c: AnswerContext): Promise<Response> {
  if (reply === undefined) {
    c.notes.drop();
    c.done(202);
    return new Response(null, { status: 202, headers: c.headers });
  }
  if (typeof reply === "string") return finishJson(reply, c);
  if (!c.sse) {
    c.notes.drop();
    return reply.then((line) => settled(line, c));
  }
  const winner = await Promise.race([reply.then((line) => ({ line })), c.notes.first()]);
  if (winner !== "note") return settled(winner.line, c);
  return sseAnswer(reply, c);
}

/** A pending reply settled: its line; with nothing, the cancellation line of a request, or 202 when nothing is owed. */
function settled(line: string | undefined, c: AnswerContext): Response {
  if (line !== undefined) return finishJson(line, c);
  if (c.cancelledLine) return finishJson(c.cancelledLine(), c);
  c.notes.drop();
  c.done(202);
  return new Response(null, { status: 202, headers: c.headers });
}

function finishJson(line: string, c: AnswerContext): Response {
  c.notes.drop();
  const status = statusFor(line, c.modern);
  c.done(status);
  return jsonResponse(line, status, c.headers, c.unread);
}
