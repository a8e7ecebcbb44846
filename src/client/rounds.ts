/** @module The client's side of 2026-07-28 multi round-trip requests: a server's `inputRequests` answered and the request sent again with `inputResponses` and its `requestState`. */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { OutboundError } from "../server/outbound.ts";
import type { JsonObject, RequestOptions, ServerRequestHandler } from "./client-types.ts";

/** What the rounds need of their connection (McpClient gives it). */
export interface RoundsLink {
  readonly label: string;
  /** Sends the request again, `params` as given (their 2026-07-28 `_meta` added), and waits for its result. */
  send(method: string, params: JsonObject, opts: RequestOptions): Promise<JsonObject>;
}

/** Rounds of one request at most; a server still asking after them is given up on. */
export const MAX_ROUNDS = 16;

/**
 * 2026-07-28 multi round-trip (basic/patterns/mrtr): answers each of the server's `inputRequests` with
 * `answer` and retries with `inputResponses` and its `requestState`, at most {@link MAX_ROUNDS} rounds.
 * @param link - the connection.
 * @param method - the request's method.
 * @param params - its params as the caller gave them (without `_meta` of the era).
 * @param first - the first `input_required` result.
 * @param answer - answers one of the server's requests.
 * @param opts - the request's options (signal, time limit, capabilities).
 * @returns the final result.
 * @throws OutboundError "rpc" when an answer fails (its error), "unavailable" after 16 rounds.
 */
export async function rounds(
  link: RoundsLink,
  method: string,
  params: JsonObject,
  first: JsonObject,
  answer: ServerRequestHandler,
  opts: RequestOptions,
): Promise<JsonObject> {
  let r = first;
  for (let round = 0; round < MAX_ROUNDS && r?.resultType === "input_required"; round++) {
    const asked = (r.inputRequests ?? {}) as Record<string, { method?: unknown; params?: unknown }>;
    const inputResponses: JsonObject = {};
    const ac = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, ac.signal]) : ac.signal;
    try {
      // All at once: a proxy in front of a 2026-07-28 client asks them in one round of its own.
      const answers = await Promise.all(
        Object.entries(asked).map(([key, q]) =>
          answer(String(q?.method), q?.params as JsonObject | undefined, { signal, key }),
        ),
      );
      Object.keys(asked).forEach((key, i) => (inputResponses[key] = answers[i]));
    } catch (e) {
      ac.abort();
      const rpc =
        e instanceof RpcError
          ? { code: e.code, message: e.message, data: e.data }
          : { code: ErrorCode.InternalError, message: (e as Error)?.message ?? String(e) };
      throw new OutboundError(
        "rpc",
        `${link.label}: ${method}: the input it asked for could not be given: ${rpc.message}`,
        rpc,
      );
    }
    const next: JsonObject = { ...params, inputResponses };
    if (r.requestState !== undefined) next.requestState = r.requestState;
    r = await link.send(method, next, opts);
  }
  if (r?.resultType === "input_required")
    throw new OutboundError("unavailable", `${link.label}: ${method}: still asking for input after 16 rounds`);
  return r;
}
