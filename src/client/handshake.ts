/** @module The client's handshake: the `server/discover` probe of 2026-07-28, the legacy `initialize`, and the `_meta` every 2026-07-28 request carries. */
import { notificationLine } from "../protocol/jsonrpc.ts";
import { META as META_KEYS } from "../protocol/meta.ts";
import { LEGACY_VERSIONS, MODERN_VERSION, NEWEST_LEGACY_VERSION } from "../protocol/versions.ts";
import { OutboundError } from "../server/outbound.ts";
import { wrapError } from "./client-errors.ts";
import { supportedVersionsOf } from "./version-retry.ts";
import type { ClientOptions, Implementation, JsonObject } from "./client-types.ts";
import type { ClientTransport } from "./transport.ts";

/** The `clientInfo` sent when the options give none. */
export const DEFAULT_CLIENT_INFO: Implementation = { name: "mcpbin-client", version: "0.1.0" };

/** What the handshake learnt of the server. */
export interface ServerFacts {
  readonly era: "modern" | "legacy";
  readonly protocolVersion: string;
  readonly serverCapabilities: JsonObject;
  readonly instructions: string | undefined;
  readonly serverInfo: Implementation | undefined;
}

/** What the handshake needs of its connection (McpClient gives it). */
export interface HandshakeLink {
  readonly label: string;
  readonly opts: ClientOptions;
  readonly transport: ClientTransport;
  /** Sends one request and waits for its result (the connection's Outbound). */
  send(method: string, params: JsonObject, timeoutMs: number): Promise<unknown>;
  /** Takes what the handshake learnt (before a legacy session's `notifications/initialized` goes out). */
  apply(facts: ServerFacts): void;
}

/**
 * `params` with the 2026-07-28 `_meta` every modern request carries (MCP 2026-07-28 basic/versioning "Protocol
 * Version Negotiation"), the caller's `_meta` kept.
 * @param params - the request's params.
 * @param opts - the connection's options (its capabilities and clientInfo).
 * @param capabilities - the capabilities this request declares (default the connection's).
 * @returns the params to send.
 */
export function modernParams(params: JsonObject, opts: ClientOptions, capabilities?: JsonObject): JsonObject {
  const given = params._meta as JsonObject | undefined;
  return {
    ...params,
    _meta: {
      ...given,
      [META_KEYS.protocolVersion]: MODERN_VERSION,
      [META_KEYS.clientCapabilities]: capabilities ?? opts.capabilities ?? {},
      [META_KEYS.clientInfo]: opts.clientInfo ?? DEFAULT_CLIENT_INFO,
    },
  };
}

/**
 * Runs the handshake in the era the options ask for: `"auto"` probes with `server/discover` and falls back to
 * `initialize` (MCP 2026-07-28 basic/versioning "Backward Compatibility with Initialization-Based Versions").
 * @param link - the connection.
 * @throws OutboundError "timeout" when the handshake takes longer than `startTimeoutMs`; as {@link discover} and {@link initialize}.
 */
export async function handshake(link: HandshakeLink): Promise<void> {
  const era = link.opts.era ?? "auto";
  const budget = link.opts.startTimeoutMs ?? 10_000;
  const started = performance.now();
  try {
    if (era !== "legacy") {
      // The probe gets at most half the budget (and 5 s): a legacy server that never answers it keeps time to initialize.
      const probe =
        budget === 0 ? (era === "auto" ? 5000 : 0) : era === "auto" ? Math.min(5000, Math.ceil(budget / 2)) : budget;
      const modern = await discover(link, probe, era === "modern");
      if (modern) return;
    }
    await initialize(link, budget === 0 ? 0 : Math.max(1, Math.round(budget - (performance.now() - started))));
  } catch (e) {
    if (e instanceof OutboundError && e.code === "timeout")
      throw new OutboundError("timeout", `${link.label}: no answer to the handshake within ${budget} ms`);
    throw e;
  }
}

/**
 * `server/discover`: true when the server speaks 2026-07-28; false (auto) or throws (modern only) otherwise.
 * @throws OutboundError when the server is not modern and `required`, or the connection closed.
 */
async function discover(link: HandshakeLink, timeoutMs: number, required: boolean): Promise<boolean> {
  let r: JsonObject;
  try {
    r = (await link.send("server/discover", modernParams({}, link.opts), timeoutMs)) as JsonObject;
  } catch (e) {
    if (required || (e instanceof OutboundError && e.code === "closed"))
      throw wrapError(link.label, "server/discover", e, timeoutMs);
    // -32022 is a modern server's answer (retried once already when it lists 2026-07-28): `initialize` only when it
    // lists a legacy version this client speaks, never as a fallback (MCP 2026-07-28 basic/transports/stdio
    // "Backward Compatibility": use one of the versions in its advertised supported list).
    const supported = supportedVersionsOf(e);
    if (supported && !supported.some((v) => (LEGACY_VERSIONS as readonly string[]).includes(v)))
      throw new OutboundError(
        "unavailable",
        `${link.label}: the server speaks none of this client's protocol versions (it supports ${supported.join(", ") || "none it named"}; this client speaks ${MODERN_VERSION}, ${LEGACY_VERSIONS.join(", ")})`,
        (e as OutboundError).rpc,
      );
    return false;
  }
  const supported = Array.isArray(r?.supportedVersions) ? r.supportedVersions : [];
  if (!supported.includes(MODERN_VERSION)) {
    if (required)
      throw new OutboundError(
        "unavailable",
        `${link.label}: the server does not speak ${MODERN_VERSION} (supported: ${supported.join(", ")})`,
      );
    return false;
  }
  link.apply({
    era: "modern",
    protocolVersion: MODERN_VERSION,
    serverCapabilities: (r.capabilities as JsonObject) ?? {},
    instructions: typeof r.instructions === "string" ? r.instructions : undefined,
    serverInfo:
      ((r._meta as JsonObject | undefined)?.[META_KEYS.serverInfo] as Implementation) ??
      (r.serverInfo as Implementation | undefined),
  });
  return true;
}

/**
 * `initialize` at the newest legacy version, accepting any legacy version the server answers with (basic/lifecycle).
 * @throws OutboundError "unavailable" when the server answers with a version this client does not speak; as the request.
 */
async function initialize(link: HandshakeLink, timeoutMs: number): Promise<void> {
  let r: JsonObject;
  try {
    r = (await link.send(
      "initialize",
      {
        protocolVersion: NEWEST_LEGACY_VERSION,
        capabilities: link.opts.capabilities ?? {},
        clientInfo: link.opts.clientInfo ?? DEFAULT_CLIENT_INFO,
      },
      timeoutMs,
    )) as JsonObject;
  } catch (e) {
    throw wrapError(link.label, "initialize", e, timeoutMs);
  }
  const v = r?.protocolVersion;
  if (typeof v !== "string" || !(LEGACY_VERSIONS as readonly string[]).includes(v)) {
    throw new OutboundError(
      "unavailable",
      `${link.label}: the server answered initialize with protocol version ${JSON.stringify(v)}, which this client does not speak (it speaks ${LEGACY_VERSIONS.join(", ")})`,
    );
  }
  link.apply({
    era: "legacy",
    protocolVersion: v,
    serverCapabilities: (r.capabilities as JsonObject) ?? {},
    instructions: typeof r.instructions === "string" ? r.instructions : undefined,
    serverInfo: r.serverInfo as Implementation | undefined,
  });
  link.transport.negotiated?.(v);
  await link.transport.send(notificationLine("notifications/initialized", {}));
}
