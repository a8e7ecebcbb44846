/** @module Supported MCP protocol versions and the feature table of each (MCP 2026-07-28 basic/versioning "Compatibility Matrix"). */

/** The stateless revision, served per request from `params._meta`. */
export const MODERN_VERSION = "2026-07-28";

/** Versions negotiated by `initialize`, newest first. */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** Every version this server speaks, in preference order (advertised by `server/discover`). */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/** The version `initialize` answers when the client asks for one we do not speak. */
export const NEWEST_LEGACY_VERSION = "2025-11-25";

/** What one protocol version can carry; each flag is checked against that version's schema.json. */
export interface VersionFeatures {
  readonly version: string;
  /** 2026-07-28: stateless, `resultType`, cache hints, serverInfo in result `_meta`. */
  readonly modern: boolean;
  /** JSON-RPC batches (2025-03-26 only). */
  readonly batches: boolean;
  /** `InitializeResult.instructions`, sent from 2025-03-26 on (the issue's rule; 2024-11-05's schema.json also defines it, so omitting it there is valid too). */
  readonly instructions: boolean;
  /** `Tool.annotations` (2025-03-26+). */
  readonly toolAnnotations: boolean;
  /** `Tool.title`, `Tool._meta`, `Tool.outputSchema`, `structuredContent` (2025-06-18+). */
  readonly structured: boolean;
  /** `structuredContent` may be any JSON value and `outputSchema` any root (2026-07-28). */
  readonly structuredAnyRoot: boolean;
  /** `Tool.icons` (2025-11-25+). */
  readonly icons: boolean;
  /** `audio` content blocks (2025-03-26+). */
  readonly audio: boolean;
  /** `ProgressNotification.params.message` (2025-03-26+). */
  readonly progressMessage: boolean;
  /** `resource_link` blocks, block `_meta`, annotation `lastModified` (2025-06-18+). */
  readonly resourceLink: boolean;
  /** Content-block `annotations` (2024-11-05 inline audience/priority; all versions). */
  readonly blockAnnotations: boolean;
  /** `Implementation.title` (2025-06-18+). */
  readonly implementationTitle: boolean;
  /**
   * The MCP Apps extension (io.modelcontextprotocol/ui) is negotiated for this request: tool `_meta` and
   * `structuredContent` are kept even before 2025-06-18 (those schemas tolerate the extra properties).
   */
  readonly ui?: boolean;
}

const WITH_UI = new Map<string, VersionFeatures>();

/**
 * The features of a version for a client that declared the MCP Apps extension (one object per version).
 * @param f - the version's features.
 */
export function withUi(f: VersionFeatures): VersionFeatures {
  let u = WITH_UI.get(f.version);
  if (!u) WITH_UI.set(f.version, (u = Object.freeze({ ...f, ui: true })));
  return u;
}

function features(version: string, since: (v: string) => boolean): VersionFeatures {
  return {
    version,
    modern: version === MODERN_VERSION,
    batches: version === "2025-03-26",
    instructions: since("2025-03-26"),
    toolAnnotations: since("2025-03-26"),
    structured: since("2025-06-18"),
    structuredAnyRoot: since(MODERN_VERSION),
    icons: since("2025-11-25"),
    audio: since("2025-03-26"),
    progressMessage: since("2025-03-26"),
    resourceLink: since("2025-06-18"),
    blockAnnotations: true,
    implementationTitle: since("2025-06-18"),
  };
}

/** Feature table per version, keyed by the version string. */
export const FEATURES: ReadonlyMap<string, VersionFeatures> = new Map(
  SUPPORTED_VERSIONS.map((v) => [v, features(v, (min) => v >= min)]),
);

/**
 * The version `initialize` answers (MCP lifecycle, version negotiation): the requested one when it
 * is a legacy version we speak, otherwise the newest legacy version.
 * @param requested - `params.protocolVersion` as sent, of any type.
 */
export function negotiateLegacy(requested: unknown): string {
  return typeof requested === "string" && (LEGACY_VERSIONS as readonly string[]).includes(requested)
    ? requested
    : NEWEST_LEGACY_VERSION;
}
