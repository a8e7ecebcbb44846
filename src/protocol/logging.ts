/** @module Log levels (MCP server/utilities/logging, RFC 5424 severities) and the notifications/message params. */

/** The levels, least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** One log level (MCP LoggingLevel). */
export type LoggingLevel = (typeof LOG_LEVELS)[number];

const RANK: ReadonlyMap<string, number> = new Map(LOG_LEVELS.map((l, i) => [l, i]));

/** Whether a value is one of {@link LOG_LEVELS}. */
export function isLogLevel(x: unknown): x is LoggingLevel {
  return typeof x === "string" && RANK.has(x);
}

/**
 * Whether a message at `level` goes to a client that asked for `min` (it is at least as severe).
 * @param min - the level the client set, or undefined (nothing is sent).
 */
export function logPasses(level: LoggingLevel, min: LoggingLevel | undefined): boolean {
  return min !== undefined && RANK.get(level)! >= RANK.get(min)!;
}

/** The params of `notifications/message`. */
export function logParams(level: LoggingLevel, data: unknown, logger: string | undefined): Record<string, unknown> {
  return logger === undefined ? { level, data } : { level, logger, data };
}
