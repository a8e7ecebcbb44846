/** @module A 2026-07-28 request the server refused for its protocol version (-32022 UnsupportedProtocolVersion): sent once more with a version from the server's `supported` list. */
import { ErrorCode } from "../protocol/jsonrpc.ts";
import { META as META_KEYS } from "../protocol/meta.ts";
import { MODERN_VERSION } from "../protocol/versions.ts";
import { OutboundError } from "../server/outbound.ts";
import type { JsonObject } from "./client-types.ts";

/**
 * The versions a -32022 error says the server supports (its `data.supported`, the strings in it); undefined for
 * any other error.
 * @param e - what a request threw.
 */
export function supportedVersionsOf(e: unknown): string[] | undefined {
  if (!(e instanceof OutboundError) || e.code !== "rpc" || e.rpc?.code !== ErrorCode.UnsupportedProtocolVersion)
    return undefined;
  const supported = (e.rpc.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === "string") : undefined;
}

/**
 * Sends a request; when the server answers -32022 and its `supported` list names a per-request version this
 * client speaks (2026-07-28), sends it once more claiming that version, as a new request (MCP 2026-07-28
 * basic/versioning "Protocol Version Negotiation": the client SHOULD select a mutually supported version from
 * the `supported` list and retry the request). A request without the 2026-07-28 claim, or a list without a
 * version this client can claim per request, is not retried: the error is the caller's.
 * @param send - sends the request with these params and waits for its result.
 * @param params - its params, with the 2026-07-28 `_meta`.
 * @returns the result.
 * @throws what `send` throws (the second attempt's error after a retry).
 */
export async function withVersionRetry(
  send: (params: JsonObject | undefined) => Promise<unknown>,
  params: JsonObject | undefined,
): Promise<unknown> {
  try {
    return await send(params);
  } catch (e) {
    const meta = params?._meta as JsonObject | undefined;
    const supported = supportedVersionsOf(e);
    if (meta?.[META_KEYS.protocolVersion] === undefined || !supported?.includes(MODERN_VERSION)) throw e;
    return await send({ ...params, _meta: { ...meta, [META_KEYS.protocolVersion]: MODERN_VERSION } });
  }
}
