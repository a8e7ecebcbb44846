/** @module The server options resolved: their defaults, and the check of every key (their shape and key list: src/shared/server-options.ts). */
import { resolveJsonOptions, type JsonOptions } from "../shared/json.ts";
import { ToolDefinitionError } from "../shared/definition-error.ts";
import { checkOption, describeValue, keyProblem, nearestKey } from "../shared/option-keys.ts";
import { HTTP_KEYS, KNOB_KEYS, SESSIONS_KEYS, UPSTREAMS_KEYS } from "../shared/server-keys.ts";
import { SERVE_KEYS, type ServerOptions } from "../shared/server-options.ts";

export type { ServerOptions };

/** The defaults, documented in docs/reference.md ("Server options and their defaults"). */
export const DEFAULTS = {
  timeoutMs: 120_000,
  maxInFlight: 64,
  maxResultBytes: 16 * 1024 * 1024,
  maxLineBytes: 16 * 1024 * 1024,
  shutdownGraceMs: 5_000,
  askTimeoutMs: 60_000,
} as const;

/** Options with every default filled in. */
export type ResolvedOptions = ServerOptions & { [K in keyof typeof DEFAULTS]: number } & {
  readonly json: Required<JsonOptions>;
};

/**
 * Refuses an option `serve()` does not know (a typo such as `maxInflight` would otherwise be ignored).
 * @throws ToolDefinitionError naming the key, the key it probably meant, and the allowed keys.
 */
function checkKnownKeys(o: ServerOptions): void {
  for (const key of Object.keys(o)) {
    if ((SERVE_KEYS as readonly string[]).includes(key)) continue;
    const near = nearestKey(key, SERVE_KEYS);
    throw new ToolDefinitionError(
      `serve(): "${key}" is not a known option (${near ? `did you mean "${near}"? ` : ""}allowed: ${SERVE_KEYS.join(", ")})`,
    );
  }
}

/**
 * Fills in the defaults.
 * @throws JsonOptionsError on unknown payload JSON options.
 * @throws ToolDefinitionError for an unknown key, or when a knob is out of range (`maxInFlight: 0` would stop reading for good;
 *   a timer over 2^31 - 1 ms would fire at once).
 */
export function resolveOptions(o: ServerOptions): ResolvedOptions {
  checkKnownKeys(o);
  for (const [key, k] of Object.entries(KNOB_KEYS)) {
    const value = (o as unknown as Record<string, unknown>)[key];
    if (value !== undefined && checkOption(k, value))
      throw new ToolDefinitionError(`serve(): "${key}" must be ${k.expected}; got ${describeValue(value)}`);
  }
  const upstreams = keyProblem({ upstreams: o.upstreams, upstreamNaming: o.upstreamNaming }, UPSTREAMS_KEYS);
  if (upstreams) throw new ToolDefinitionError(`serve(): ${upstreams}`);
  const sessions = keyProblem({ sessions: o.sessions }, SESSIONS_KEYS);
  if (sessions) throw new ToolDefinitionError(`serve(): ${sessions}`);
  // Checked here, not only when HTTP is chosen: `--stdio` must not hide an `http` key that does nothing.
  if (typeof o.http === "object" && o.http !== null) {
    const http = keyProblem(o.http as Record<string, unknown>, HTTP_KEYS, "http.");
    if (http) throw new ToolDefinitionError(`serve(): ${http}`);
  }
  return {
    ...o,
    json: resolveJsonOptions(o.json),
    timeoutMs: o.timeoutMs ?? DEFAULTS.timeoutMs,
    maxInFlight: o.maxInFlight ?? DEFAULTS.maxInFlight,
    maxResultBytes: o.maxResultBytes ?? DEFAULTS.maxResultBytes,
    maxLineBytes: o.maxLineBytes ?? DEFAULTS.maxLineBytes,
    shutdownGraceMs: o.shutdownGraceMs ?? DEFAULTS.shutdownGraceMs,
    askTimeoutMs: o.askTimeoutMs ?? DEFAULTS.askTimeoutMs,
  };
}
