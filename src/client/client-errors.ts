/** @module The client's local errors: a request's failure said with the server's name and the method, and the ids of messages that failed unread or unsent. */
import type { RequestId } from "../protocol/jsonrpc.ts";
import { OutboundError } from "../server/outbound.ts";

/**
 * A request's failure as the caller sees it: an {@link OutboundError} whose message names the server and the
 * method (and the time limit of a timeout); anything else as it is.
 * @param label - the server's label.
 * @param method - the request's method.
 * @param e - what the request threw.
 * @param timeoutMs - its time limit, ms (said in a timeout's message).
 * @returns the error to throw.
 */
export function wrapError(label: string, method: string, e: unknown, timeoutMs?: number): Error {
  if (!(e instanceof OutboundError)) return e as Error;
  const where = `${label}: ${method}`;
  switch (e.code) {
    case "rpc":
      return new OutboundError("rpc", `${where} failed: ${e.rpc?.message ?? "error"} (${e.rpc?.code})`, e.rpc);
    case "timeout":
      return new OutboundError(
        "timeout",
        timeoutMs === undefined ? `${where}: no answer in time` : `${where}: no answer within ${timeoutMs} ms`,
      );
    case "cancelled":
      return new OutboundError("cancelled", `${where}: cancelled`);
    default:
      return new OutboundError(e.code, `${where}: ${e.message.replace(/^[^:]*: /, "")}`, e.rpc, e.unsent);
  }
}

/**
 * The id of the request a line of ours carries (a send of it failed), or undefined when it is no request.
 * @param line - one JSON-RPC message as sent.
 */
export function requestIdOfLine(line: string): RequestId | undefined {
  try {
    const m = JSON.parse(line) as { id?: unknown; method?: unknown };
    return (m.method !== undefined ? m.id : undefined) as RequestId | undefined;
  } catch {
    return undefined;
  }
}

/**
 * The id of the response a message dropped as too large was, known by its first bytes; undefined when the head
 * shows a request or notification, or no id.
 * @param head - the message's first bytes.
 */
export function responseIdOfHead(head: string): RequestId | undefined {
  const m = /^\s*\{(?:(?!"method")[^])*?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(head);
  if (!m || /"method"\s*:/.test(head.slice(0, m.index + m[0].length))) return undefined;
  try {
    return JSON.parse(m[1]!) as RequestId;
  } catch {
    return undefined;
  }
}
