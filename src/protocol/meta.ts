/** @module The `_meta` keys MCP reserves, and the era of a message read from them (the only place both live). */
import { ErrorCode, RpcError } from "./jsonrpc.ts";
import { MODERN_VERSION, SUPPORTED_VERSIONS } from "./versions.ts";

/** `_meta` keys of MCP 2026-07-28 (basic/index "General fields: _meta"), by what they carry. */
export const META = {
  /** Request: the protocol version the request is written in (its presence makes a request 2026-07-28 era). */
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** Request: the client's capabilities (an object; `{}` for none). */
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** Request: the client's `Implementation` (name, version, …), optional. */
  clientInfo: "io.modelcontextprotocol/clientInfo",
  /** Request: the log level the client asks for, optional. */
  logLevel: "io.modelcontextprotocol/logLevel",
  /** Result: the server's `Implementation`, on every 2026-07-28 result. */
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** Notification: the subscription a notification belongs to. */
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** A message's `params` as an object, or undefined (absent, null, an array or a scalar). */
export function paramsObject(params: unknown): Record<string, unknown> | undefined {
  return params !== null && typeof params === "object" && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

/**
 * `params._meta` when it is an object.
 * @param params - a message's params, of any type.
 * @returns the `_meta` object, or undefined.
 */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const p = paramsObject(params);
  const meta = p?._meta;
  return meta !== null && typeof meta === "object" && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/**
 * The era of a request (MCP 2026-07-28 basic/versioning "Backward Compatibility with Initialization-Based Versions"): a `_meta` protocol-version claim makes it a stateless
 * 2026-07-28 request; `initialize`, and anything without the claim, is legacy (the version a session
 * negotiated). The claim is not checked here: see {@link readClaim}.
 * @param method - the message's method.
 * @param meta - its `params._meta` ({@link metaOf}).
 */
export function eraOf(method: string, meta: Record<string, unknown> | undefined): "legacy" | "modern" {
  return method !== "initialize" && meta !== undefined && META.protocolVersion in meta ? "modern" : "legacy";
}

/** What a well-formed 2026-07-28 claim says. */
export interface Claim {
  /** The protocol version named (not yet known to be supported: see {@link checkSupported}). */
  readonly version: string;
  /** The client capabilities declared with it. */
  readonly capabilities: Record<string, unknown>;
}

/**
 * Reads the claim of a modern request (MCP 2026-07-28 basic/versioning): the version must be a string
 * and the client capabilities an object.
 * @param meta - the request's `params._meta`.
 * @returns the claim, or the -32602 error to answer.
 */
export function readClaim(meta: Record<string, unknown>): Claim | RpcError {
  const version = meta[META.protocolVersion];
  if (typeof version !== "string")
    return new RpcError(ErrorCode.InvalidParams, `Invalid params: _meta["${META.protocolVersion}"] must be a string`);
  const capabilities = meta[META.clientCapabilities];
  if (capabilities === null || typeof capabilities !== "object" || Array.isArray(capabilities)) {
    return new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta["${META.clientCapabilities}"] is required (an object; {} for none)`,
    );
  }
  return { version, capabilities: capabilities as Record<string, unknown> };
}

/**
 * @param version - the version a modern request claims.
 * @returns undefined when this server serves it statelessly, else the -32022 error (data: supported, requested).
 */
export function checkSupported(version: string): RpcError | undefined {
  return version === MODERN_VERSION
    ? undefined
    : new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
        supported: SUPPORTED_VERSIONS,
        requested: version,
      });
}

/**
 * The one judgement of a modern request's claim (MCP 2026-07-28 basic/versioning): well-formed ({@link readClaim}),
 * then a version this server serves ({@link checkSupported}).
 * @param meta - the request's `params._meta`.
 * @returns the claim, or the error to answer (-32602 malformed, -32022 unsupported).
 */
export function checkClaim(meta: Record<string, unknown>): Claim | RpcError {
  const claim = readClaim(meta);
  if (claim instanceof RpcError) return claim;
  return checkSupported(claim.version) ?? claim;
}
