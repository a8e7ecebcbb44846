/** @module Reading the replies of a Streamable HTTP server: bodies read no further than a size limit, what an SSE stream told of itself, refusals in words, the id a response answers. */
import type { RequestId } from "../protocol/jsonrpc.ts";

/** What an SSE stream told of itself: its last event id, the server's `retry`, how many events came. */
export interface SseState {
  lastId?: string;
  retryMs?: number;
  events: number;
}

/**
 * Why the server refused a request at the HTTP level, in words: 401 and 403 say that signing in failed.
 * @param res - the response (not ok).
 */
export function refusal(res: Response): string {
  const status = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`;
  if (res.status === 401)
    return `sign-in failed: the server answered ${status} (it did not accept the credentials sent; check the token or Authorization header)`;
  if (res.status === 403)
    return `sign-in failed: the server answered ${status} (the credentials sent are not allowed this)`;
  return status;
}

/**
 * A body as text, read no further than `max` bytes: undefined (and the rest of the body cancelled) when it is
 * longer, so a body over the limit is never held whole.
 */
export async function cappedText(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return "";
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await res.body.cancel().catch(() => {});
    return undefined;
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > max) {
      await res.body.cancel().catch(() => {});
      return undefined;
    }
    parts.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}

/** The id of a JSON-RPC response in `text`, or undefined when it is not a response. */
export function responseId(text: string): RequestId | undefined {
  try {
    const m = JSON.parse(text) as { id?: RequestId; method?: unknown; result?: unknown; error?: unknown };
    return m.method === undefined && ("result" in m || "error" in m) ? m.id : undefined;
  } catch {
    return undefined;
  }
}
