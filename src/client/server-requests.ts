/** @module A legacy server's requests to the client (ping, roots/list, sampling, elicitation): answered here or by the request in flight that caused them. */
import { ErrorCode, errorLine, resultLine, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import { AskRoutes } from "./ask-routes.ts";
import type { JsonObject, ServerRequestHandler } from "./client-types.ts";
import { withElicitationDefaults } from "./elicit-defaults.ts";

/** What answering needs of its connection (McpClient gives it). */
export interface AnswerLink {
  readonly label: string;
  readonly routes: AskRoutes;
  /** The connection's own answerer (ClientOptions.onRequest). */
  readonly onRequest: ServerRequestHandler | undefined;
  /** The server's requests being answered, by id: a `notifications/cancelled` aborts one. */
  readonly serving: Map<RequestId, AbortController>;
  /** Whether accepted form elicitations are completed with their schema's defaults (ClientOptions.elicitationDefaults). */
  readonly elicitationDefaults: boolean;
  /** Writes the answer. */
  send(line: string): Promise<void>;
}

/**
 * A request from the server: `ping` answered here, the rest by the request in flight that caused it, tied
 * as RequestOptions.onRequest says, else the connection's `onRequest` (else -32601, or -32603 when
 * several requests in flight could have caused it). An answer to a request the server cancelled is not sent.
 * @param link - the connection.
 * @param id - the server's request id.
 * @param method - its method.
 * @param params - its params.
 * @param relatedId - our request whose reply stream it came on (Streamable HTTP), if any.
 */
export async function answerServerRequest(
  link: AnswerLink,
  id: RequestId,
  method: string,
  params: JsonObject | undefined,
  relatedId: RequestId | undefined,
): Promise<void> {
  let line: string;
  let answer: ServerRequestHandler | undefined;
  let untied = 0;
  let mixed = false;
  if (method !== "ping") {
    const r = link.routes.routeOf("onRequest", params, relatedId, true);
    mixed = r.mixed === true;
    answer = r.found?.onRequest ?? (mixed ? undefined : AskRoutes.shared(r.candidates)?.onRequest) ?? link.onRequest;
    if (!r.found) untied = r.candidates.length;
  }
  if (method === "ping") line = resultLine(id, {});
  else if (!answer && (untied > 1 || mixed)) {
    const among = mixed
      ? "one client's requests (requests of several clients are in flight or just ended)"
      : `one of the ${untied} requests in flight`;
    line = errorLine(
      id,
      new RpcError(
        ErrorCode.InternalError,
        `${method} could not be attributed to ${among} to ${link.label} (a server's request over stdio names no request; over Streamable HTTP it rides on its request's stream), so no client was asked`,
      ),
    );
  } else if (!answer) line = errorLine(id, new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`));
  else {
    const ac = new AbortController();
    link.serving.set(id, ac);
    try {
      const result = await answer(method, params, { signal: ac.signal });
      line = resultLine(id, link.elicitationDefaults ? withElicitationDefaults(method, params, result) : result);
    } catch (e) {
      line = errorLine(
        id,
        e instanceof RpcError ? e : new RpcError(ErrorCode.InternalError, (e as Error)?.message ?? String(e)),
      );
    } finally {
      link.serving.delete(id);
    }
    if (ac.signal.aborted) return;
  }
  await link.send(line).catch(() => {});
}
