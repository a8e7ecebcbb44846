/** @module The client's Streamable HTTP transport: one POST per message, JSON or SSE replies, the legacy session and its GET stream. */
import { createParser } from "eventsource-parser";
import { logLine } from "../runtime/log-name.ts";
import { ErrorCode, type RequestId } from "../protocol/jsonrpc.ts";
import { META as META_KEYS } from "../protocol/meta.ts";
import type { ClientTransport, TransportSink } from "./transport.ts";
import { fetchSameOrigin } from "./same-origin.ts";
import { encodeHeaderValue, ToolHeaders } from "./param-headers.ts";
import { cappedText, refusal, responseId, type SseState } from "./http-reply.ts";
import type { ClientAuth } from "../shared/oauth-client.ts";

/** A server reached over Streamable HTTP (MCP basic/transports). */
export interface HttpTarget {
  /** The MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  readonly url: string;
  /** Sent on every request (e.g. `Authorization`); never logged. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Sign in with OAuth 2.1 when the server asks (a 401): `"oauth"`, or options (client id, scopes, token
   * store, …); see docs/auth.md. Tokens are kept per issuer and resource in the user's config folder.
   */
  readonly auth?: ClientAuth;
}

/** Options of {@link httpTransport}. */
export interface HttpTransportOptions {
  /** The label in errors; default the URL's origin and path (never its query or credentials). */
  readonly label?: string;
  /** The fetch to use (tests pass a validating one); default the global fetch. */
  readonly fetch?: typeof fetch;
  /** Largest SSE event or JSON body accepted, in bytes: a larger one is dropped while it is read, and its request fails at once. Default 16 MiB. */
  readonly maxMessageBytes?: number;
}

/** Methods whose `Mcp-Name` header mirrors a params field (2026-07-28 Streamable HTTP, standard headers; the tasks extension's routing headers). */
const NAME_FIELD: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** A header value as the 2026-07-28 standard headers carry it: as is when printable ASCII, else `=?base64?…?=`. */
const headerValue = encodeHeaderValue;

/**
 * A transport to a Streamable HTTP endpoint. Each message is one POST; a request's reply is a JSON
 * body or an SSE stream (progress and server requests first, then the response). Legacy sessions keep
 * the `Mcp-Session-Id` issued at `initialize`, send `MCP-Protocol-Version`, open the optional GET
 * stream for server notifications, and are deleted on close. Modern (2026-07-28) requests carry
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` mirroring the body. An HTTP failure without a
 * JSON-RPC body, or a stream that ends before its response, is delivered as an error response for
 * that request id, so no call waits for an answer that cannot come.
 * @param target - url and headers.
 * @param opts - label, fetch, size cap.
 * @returns the transport.
 */
export function httpTransport(target: HttpTarget, opts: HttpTransportOptions = {}): ClientTransport {
  const url = new URL(target.url);
  const label = opts.label ?? `${url.origin}${url.pathname}`;
  const doFetch = opts.fetch ?? fetch;
  const maxBytes = opts.maxMessageBytes ?? 16 * 1024 * 1024;
  let sink: TransportSink | undefined;
  let sessionId: string | undefined;
  let legacyVersion: string | undefined;
  let closed = false;
  /** One controller per open POST (keyed by request id) and the GET stream. */
  const open = new Map<RequestId | "get", AbortController>();
  // 2026-07-28 x-mcp-header: what the server's tools/list answers said, for the Mcp-Param-* headers of calls.
  const toolHeaders = new ToolHeaders((m) => logLine(`${label}: ${m}`));
  const listIds = new Set<RequestId>();

  const baseHeaders = (): Record<string, string> => {
    const h: Record<string, string> = {
      ...target.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (sessionId !== undefined) h["mcp-session-id"] = sessionId;
    if (legacyVersion !== undefined) h["mcp-protocol-version"] = legacyVersion;
    return h;
  };

  const fail = (id: RequestId, message: string) => {
    sink?.line(
      JSON.stringify({ jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message: `${label}: ${message}` } }),
    );
  };

  /** Delivers a reply body (JSON or SSE); returns whether a response for `id` was among it, or "too large" when a message was over the limit. */
  const deliver = async (
    res: Response,
    id: RequestId | undefined,
    signal: AbortSignal,
    sse: SseState = { events: 0 },
  ): Promise<boolean | "too large"> => {
    const type = res.headers.get("content-type") ?? "";
    let answered = false;
    let tooLarge = false;
    const one = (text: string) => {
      if (id !== undefined && !answered && responseId(text) === id) answered = true;
      if (answered && id !== undefined && listIds.delete(id)) text = toolHeaders.observeList(text);
      // On a POST's stream, the server's requests are those of our request `id` (the SDKs' relatedRequestId).
      sink?.line(text, id);
    };
    if (type.includes("text/event-stream") && res.body) {
      const parser = createParser({
        onEvent: (ev) => {
          if (ev.id !== undefined) sse.lastId = ev.id;
          sse.events++;
          if (ev.data.trim() !== "") one(ev.data);
        },
        onRetry: (ms) => void (sse.retryMs = ms),
        onError: (e) => {
          if (e.type === "max-buffer-size-exceeded") tooLarge = true;
        },
        // An event is never held whole past the limit: the parser stops at it.
        maxBufferSize: maxBytes,
      });
      const dec = new TextDecoder();
      try {
        for await (const chunk of res.body) {
          if (signal.aborted || tooLarge) break;
          parser.feed(dec.decode(chunk, { stream: true }));
        }
      } catch {
        // the stream broke or was aborted; a missing response is reported by the caller
      }
      if (tooLarge) void res.body.cancel().catch(() => {});
      return tooLarge && !answered ? "too large" : answered;
    }
    const text = await cappedText(res, maxBytes);
    if (text === undefined) return "too large";
    if (text.trim() !== "") one(text.trim());
    return answered;
  };

  /** A GET for a legacy SSE stream, resuming after `lastId` when given (MCP 2025-03-26+ basic/transports, resumability). */
  const getStream = (signal: AbortSignal, lastId?: string) => {
    const h = baseHeaders();
    delete h["content-type"];
    h.accept = "text/event-stream";
    if (lastId !== undefined) h["last-event-id"] = lastId;
    return fetchSameOrigin(doFetch, url, { method: "GET", headers: h, signal });
  };
  const isSse = (res: Response) => res.ok && (res.headers.get("content-type") ?? "").includes("text/event-stream");

  /**
   * A POST's SSE stream that ended without its response, after an event with an id: resumed with a GET and
   * Last-Event-ID once the server's `retry` has passed, a few times at most.
   */
  const resume = async (id: RequestId, signal: AbortSignal, sse: SseState): Promise<boolean | "too large"> => {
    for (let attempt = 0; attempt < 5 && sse.lastId !== undefined && !signal.aborted && !closed; attempt++) {
      await Bun.sleep(sse.retryMs ?? 1000);
      let res: Response;
      try {
        res = await getStream(signal, sse.lastId);
      } catch {
        continue;
      }
      if (!isSse(res)) {
        await res.body?.cancel().catch(() => {});
        if (res.status >= 400 && res.status < 500) return false; // the server keeps no such stream (405, 404, 410)
        continue;
      }
      const ok = await deliver(res, id, signal, sse);
      if (ok !== false) return ok;
    }
    return false;
  };

  const openGetStream = (lastId?: string, failures = 0) => {
    if (closed || open.has("get") || sessionId === undefined) return;
    const ac = new AbortController();
    open.set("get", ac);
    const sse: SseState = { events: 0, lastId };
    void getStream(ac.signal, lastId)
      .then(async (res) => {
        // 405: the server offers no stream for server-initiated messages, which is allowed.
        if (isSse(res)) await deliver(res, undefined, ac.signal, sse);
        else await res.body?.cancel().catch(() => {});
        return res.ok;
      })
      .catch(() => false)
      .then((ok) => {
        open.delete("get");
        // The server ended the stream (a drain, a replica gone): reconnect after `retry` from the last id, elsewhere
        // behind a load balancer; a few failures in a row without an event stop it.
        const tries = sse.events > 1 ? 0 : failures + 1;
        if (
          !closed &&
          !ac.signal.aborted &&
          (ok || sse.lastId !== undefined) &&
          tries < 5 &&
          sse.lastId !== undefined
        ) {
          setTimeout(() => openGetStream(sse.lastId, tries), sse.retryMs ?? 1000).unref?.();
        }
      });
  };

  return {
    label,
    async start(s: TransportSink): Promise<void> {
      sink = s;
    },
    negotiated(version: string): void {
      legacyVersion = version;
    },
    async send(line: string): Promise<void> {
      if (closed) throw new Error(`${label}: the connection is closed`);
      const msg = JSON.parse(line) as {
        id?: RequestId;
        method?: string;
        params?: { _meta?: Record<string, unknown>; [k: string]: unknown };
      };
      const h = baseHeaders();
      const isRequest = msg.method !== undefined && msg.id !== undefined;
      const modern = msg.params?._meta?.[META_KEYS.protocolVersion];
      if (typeof modern === "string" && msg.method !== undefined) {
        h["mcp-protocol-version"] = modern;
        h["mcp-method"] = headerValue(msg.method);
        const field = Object.hasOwn(NAME_FIELD, msg.method) ? NAME_FIELD[msg.method]! : undefined;
        const name = field === undefined ? undefined : msg.params?.[field];
        if (typeof name === "string") h["mcp-name"] = headerValue(name);
        if (msg.method === "tools/list" && msg.id !== undefined) listIds.add(msg.id);
        if (msg.method === "tools/call" && typeof name === "string")
          Object.assign(h, toolHeaders.headersFor(name, msg.params?.arguments));
      }
      if (msg.method === "notifications/cancelled") {
        // Closing the request's stream is how an HTTP client stops listening for it.
        const target = msg.params?.requestId as RequestId | undefined;
        if (target !== undefined) queueMicrotask(() => open.get(target)?.abort());
      }
      const ac = new AbortController();
      if (isRequest) open.set(msg.id!, ac);
      let res: Response;
      try {
        res = await fetchSameOrigin(doFetch, url, { method: "POST", headers: h, body: line, signal: ac.signal });
      } catch (e) {
        if (isRequest) open.delete(msg.id!);
        throw new Error(`${label}: ${(e as Error).message}`);
      }
      const sid = res.headers.get("mcp-session-id");
      if (sid !== null && msg.method === "initialize") sessionId = sid;
      if (!isRequest) {
        await res.body?.cancel().catch(() => {});
        if (!res.ok && res.status !== 202)
          throw new Error(`${label}: ${refusal(res)} for ${msg.method ?? "a response"}`);
        if (msg.method === "notifications/initialized") openGetStream();
        return;
      }
      const id = msg.id!;
      if (!res.ok && !(res.headers.get("content-type") ?? "").includes("application/json")) {
        // An HTTP refusal without a JSON-RPC body (401 sign-in, 403, 404, 5xx): the request fails saying so;
        // its text is never taken for a message.
        open.delete(id);
        await res.body?.cancel().catch(() => {});
        fail(id, refusal(res));
        return;
      }
      void (async () => {
        try {
          const sse: SseState = { events: 0 };
          let ok = await deliver(res, id, ac.signal, sse);
          if (ok === false && sse.lastId !== undefined && res.ok) ok = await resume(id, ac.signal, sse);
          if (ok === "too large") fail(id, `the server's answer was over ${maxBytes} bytes and was dropped unread`);
          else if (!ok && !ac.signal.aborted)
            fail(
              id,
              res.ok ? "the server ended the reply without a response" : `HTTP ${res.status} ${res.statusText}`.trim(),
            );
        } finally {
          open.delete(id);
        }
      })();
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const ac of open.values()) ac.abort();
      open.clear();
      if (sessionId !== undefined) {
        const h = baseHeaders();
        delete h["content-type"];
        await fetchSameOrigin(doFetch, url, { method: "DELETE", headers: h })
          .then((r) => r.body?.cancel())
          .catch(() => {});
      }
      sink?.closed(undefined);
    },
  };
}
