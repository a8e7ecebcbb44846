/** @module The last step of a POST: a dispatcher reply answered over HTTP under the request's deadline, with disconnect handling and its notifications routed to it. */
import { ErrorCode, errorLine, RpcError, type Reply, type RequestId } from "../protocol/jsonrpc.ts";
import type { Session } from "../server/dispatcher.ts";
import { answer } from "./http-reply.ts";
import { acceptsSse, type Notes } from "./http-sse.ts";
import type { LegacySession } from "./http-sessions.ts";
import type { StreamEvents } from "./stream-events.ts";
import { finish, type PostCall } from "./http-endpoint.ts";

/** Which request a reply answers, and where it runs. */
export interface Running {
  /** The request's id; undefined for a batch or a notification. */
  readonly id: RequestId | undefined;
  /** The notifications (progress) of the request. */
  readonly notes: Notes;
  /** 2026-07-28 (stateless) rather than a legacy session's. */
  readonly modern: boolean;
  /** The legacy session it belongs to. */
  readonly legacy?: LegacySession;
  /** The stateless session it runs in (2026-07-28). */
  readonly session?: Session;
  /** A long-lived request (its entry says `longLived`: a subscriptions/listen stream): it lives until the client closes it, no request deadline. */
  readonly longLived?: boolean;
}

/**
 * Answers one dispatcher reply: JSON or an SSE stream (src/transport/http-reply.ts), the call cancelled at the
 * request's deadline or when the client closes the connection (except a legacy stream that became resumable:
 * disconnection is not cancellation), its answer counted among the unread ones.
 * @param c - the request.
 * @param reply - what the dispatcher returned.
 * @param r - the request's id, notifications and session.
 * @returns the response.
 */
export function run(c: PostCall, reply: Reply, r: Running): Promise<Response> | Response {
  const { req, endpoint: e } = c;
  const { id, notes, legacy: s } = r;
  const target = r.session ?? s?.session;
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
    if (c.deadline !== Infinity && !r.longLived) {
      timer = setTimeout(
        () => ((timedOut = true), cancel("request timeout", "timeout")),
        Math.max(0, c.deadline - Date.now()),
      );
    }
    req.signal.addEventListener("abort", onAbort);
  }
  const what = id === undefined ? c.exchange.mcpMethod : `${c.exchange.mcpMethod} (id ${JSON.stringify(id)})`;
  return answer(reply, {
    id: id ?? null,
    modern: r.modern,
    sse: pending && id !== undefined && acceptsSse(req),
    headers: c.headers,
    notes,
    abort: onAbort,
    ...(s && id !== undefined ? { resumable: () => (recorder = e.streamEvents.open(s.id)), retryMs: e.o.retryMs } : {}),
    unread: { answers: e.unread, what, kind: c.kind },
    done(status) {
      if (timer) clearTimeout(timer);
      req.signal.removeEventListener("abort", onAbort);
      if (s) {
        s.active--;
        s.lastSeen = Date.now();
        if (id !== undefined && s.sinks.get(id) === notes.push) s.sinks.delete(id);
      }
      finish(c, status);
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
                  ? `The request timed out after ${e.o.requestTimeoutMs} ms (http.requestTimeoutMs)`
                  : "The request was cancelled",
              ),
            ),
  });
}
