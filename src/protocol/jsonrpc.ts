/** @module JSON-RPC 2.0 envelope: message shapes, error codes (the only place they live) and RpcError. */

/** A request id: string or integer, never null (MCP basic/index). */
export type RequestId = string | number;

/** Standard JSON-RPC and MCP error codes (MCP 2026-07-28 basic "Error Codes"). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP: the resource named does not exist (server/resources). */
  ResourceNotFound: -32002,
  /** 2026-07-28 HTTP: header does not match the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: handling needs a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: `_meta` names a protocol version this server does not speak. */
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * Whether an error code is the caller's mistake (parse, envelope, method, params, unknown resource)
 * rather than a fault of the server (OpenTelemetry MCP conventions: such spans keep status UNSET).
 * @param code - a JSON-RPC error code.
 */
export function isCallerError(code: number): boolean {
  return (
    code === ErrorCode.ParseError ||
    code === ErrorCode.InvalidRequest ||
    code === ErrorCode.MethodNotFound ||
    code === ErrorCode.InvalidParams ||
    code === ErrorCode.ResourceNotFound
  );
}

/** A response line, a promise of one (undefined: nothing to send), or nothing: what the pipeline gives a transport for one message. */
export type Reply = string | Promise<string | undefined> | undefined;

/** A wire error: becomes `{"error":{code,message,data?}}` in a response. */
export class RpcError extends Error {
  /**
   * @param code - a JSON-RPC error code from {@link ErrorCode}.
   * @param message - one sentence for the client.
   * @param data - optional structured detail.
   */
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

/** A request or notification that passed envelope validation. */
export interface Message {
  readonly id?: RequestId;
  readonly method: string;
  readonly params?: unknown;
}

/** A response the peer sent to one of our requests (JSON-RPC 2.0 §5): `result`, or `error`. */
export interface ResponseMessage {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** Outcome of envelope validation: a message, a response to send (with the id we could read), or a response of the peer's. */
export type Envelope =
  | { readonly kind: "message"; readonly message: Message }
  | { readonly kind: "invalid"; readonly id: RequestId | null; readonly error: RpcError }
  | { readonly kind: "response"; readonly response: ResponseMessage };

/** A string, or an integer JSON.parse read exactly (beyond 2^53 the echoed id would differ from the sent one). */
function isId(id: unknown): id is RequestId {
  return typeof id === "string" || Number.isSafeInteger(id);
}

/**
 * Checks one parsed JSON value against the JSON-RPC 2.0 request/notification envelope.
 * A client's response (it has `result` or `error` and no `method`) is returned as such, for the
 * outbound requests it may answer (src/server/outbound.ts).
 * @param value - the result of `JSON.parse` on one line.
 * @returns the message, an invalid-request error with the id we could read (or null), or "response".
 */
export function checkEnvelope(value: unknown): Envelope {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return invalid(null, "Invalid Request: a JSON-RPC message must be an object");
  }
  const m = value as Record<string, unknown>;
  const rawId = m.id;
  const readableId = isId(rawId) ? rawId : null;
  if (m.jsonrpc !== "2.0") return invalid(readableId, 'Invalid Request: "jsonrpc" must be "2.0"');
  if (m.method === undefined && ("result" in m || "error" in m)) return { kind: "response", response: m };
  if (typeof m.method !== "string") return invalid(readableId, 'Invalid Request: "method" must be a string');
  if ("id" in m && !isId(rawId)) {
    return invalid(null, 'Invalid Request: "id" must be a string or an integer within ±(2^53-1), never null');
  }
  const params = m.params;
  if (params !== undefined && params !== null && typeof params !== "object") {
    return invalid(readableId, 'Invalid Request: "params" must be an object');
  }
  return { kind: "message", message: m as unknown as Message };
}

function invalid(id: RequestId | null, message: string): Envelope {
  return { kind: "invalid", id, error: new RpcError(ErrorCode.InvalidRequest, message) };
}

/** Serializes a success response line (no trailing newline). */
export function resultLine(id: RequestId, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result)}}`;
}

/** Serializes an error response line (no trailing newline); `id` null when it could not be read. */
export function errorLine(id: RequestId | null, error: RpcError): string {
  const body: { code: number; message: string; data?: unknown } = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify(body)}}`;
}

/** Serializes a request line (no trailing newline). */
export function requestLine(id: RequestId, method: string, params: unknown): string {
  return params === undefined
    ? JSON.stringify({ jsonrpc: "2.0", id, method })
    : JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

/** Serializes a notification line (no trailing newline). */
export function notificationLine(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", method, params });
}
