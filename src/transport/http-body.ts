/** @module Reading an HTTP request's body: its content type, size and own deadline (so a client sending it slowly cannot hold a socket for the whole request timeout), parsed once. */
import { ErrorCode } from "../protocol/jsonrpc.ts";
import type { ResolvedHttpOptions } from "./http-options.ts";
import { acceptsJson } from "./http-reply.ts";
import { acceptsSse } from "./http-sse.ts";

/** What {@link readBody} rejects with when the deadline passes first. */
const BODY_TIMEOUT = Symbol("body timeout");

/**
 * Reads a request's body as text, bounded in time: the read is cancelled when `deadline` passes.
 * @param req - the request.
 * @param deadline - ms since the epoch (`Date.now()` clock); Infinity for none.
 * @returns the body.
 * @throws {@link BODY_TIMEOUT} when the deadline passes first; the body stream's error otherwise (e.g. too large).
 */
function readBody(req: Request, deadline: number): Promise<string> {
  if (deadline === Infinity) return req.text();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        reject(BODY_TIMEOUT);
        // Stop taking what is left of the body; the 408 closes the connection.
        req.body?.cancel().catch(() => {});
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([req.text(), late]).finally(() => clearTimeout(timer));
}

/** A POST body refused before dispatch: the HTTP status and the JSON-RPC error (id null) it is answered with. */
export interface BodyRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

/**
 * The first step of a POST (MCP basic/transports, Streamable HTTP "Sending Messages"): an `application/json` body the
 * client accepts an answer to, within `http.maxBodyBytes`, arriving within `http.bodyTimeoutMs` (and the request's own
 * deadline), parsed once.
 * @param req - the request.
 * @param o - the limits.
 * @param headers - the response's headers (a 408 closes the connection).
 * @param server - the Bun server, whose idle timeout is lifted: the request's own deadline bounds it.
 * @returns the parsed body and the request's deadline (ms since the epoch; Infinity for none), or why it is refused.
 */
export async function readJsonBody(
  req: Request,
  o: Pick<ResolvedHttpOptions, "maxBodyBytes" | "requestTimeoutMs" | "bodyTimeoutMs">,
  headers: Headers,
  server?: { timeout(req: Request, seconds: number): void },
): Promise<{ readonly value: unknown; readonly deadline: number } | BodyRefusal> {
  const refuse = (status: number, code: number, message: string): BodyRefusal => ({ status, code, message });
  const tooLarge = () =>
    refuse(
      413,
      ErrorCode.InvalidRequest,
      `Payload Too Large: the body is over ${o.maxBodyBytes} bytes (http.maxBodyBytes)`,
    );
  const ct = req.headers.get("content-type");
  if (ct === null || !ct.toLowerCase().includes("application/json"))
    return refuse(415, ErrorCode.InvalidRequest, "Unsupported Media Type: the body must be application/json");
  if (!acceptsJson(req) && !acceptsSse(req))
    return refuse(406, ErrorCode.InvalidRequest, "Not Acceptable: accept application/json and text/event-stream");
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > o.maxBodyBytes) return tooLarge();
  const deadline = o.requestTimeoutMs > 0 ? Date.now() + o.requestTimeoutMs : Infinity;
  // Our own deadline bounds the request; Bun's idle timeout (10 s) would cut long tool calls.
  server?.timeout(req, 0);
  let text: string;
  try {
    text = await readBody(req, Math.min(deadline, Date.now() + o.bodyTimeoutMs));
  } catch (e) {
    if (e === BODY_TIMEOUT) {
      // The rest of a slow body may still come: the connection is closed, not kept for the next request.
      headers.set("connection", "close");
      return refuse(
        408,
        ErrorCode.InvalidRequest,
        `Request Timeout: the body did not arrive within ${Math.min(o.bodyTimeoutMs, o.requestTimeoutMs || Infinity)} ms (http.bodyTimeoutMs)`,
      );
    }
    return tooLarge();
  }
  if (text.length > o.maxBodyBytes / 4 && Buffer.byteLength(text) > o.maxBodyBytes) return tooLarge();
  try {
    return { value: JSON.parse(text), deadline };
  } catch {
    return refuse(400, ErrorCode.ParseError, "Parse error: the body is not valid JSON");
  }
}
