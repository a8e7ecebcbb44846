/** @module The `sessions` option's defaults and the environment's word on the timeout (its shape: src/shared/sessions-options.ts). */
import type { SessionsOptions } from "../shared/sessions-options.ts";

export type { SessionsOptions, WorkersOptions } from "../shared/sessions-options.ts";

/** The environment variable whose milliseconds override `sessions.timeoutMs`. */
export const TIMEOUT_ENV = "MCPBIN_SESSION_TIMEOUT_MS";

/** The defaults. */
export const SESSION_DEFAULTS = { timeoutMs: 120_000, queue: 64, concurrency: 1 } as const;

/** The option with its defaults filled in. */
export type ResolvedSessions = SessionsOptions & {
  readonly timeoutMs: number;
  readonly queue: number;
  readonly concurrency: number;
  readonly evalOverHttp: boolean;
};

/**
 * Fills in the defaults; `MCPBIN_SESSION_TIMEOUT_MS` (a whole number of ms, 0 for none) overrides the timeout.
 * @param o - the option (`true`: all defaults).
 * @param env - the environment.
 * @returns the resolved option.
 * @throws TypeError when the variable is set but not a whole number from 0 to 2147483647.
 */
export function resolveSessions(o: SessionsOptions | true, env: Record<string, string | undefined>): ResolvedSessions {
  const given = o === true ? {} : o;
  const raw = env[TIMEOUT_ENV];
  let timeoutMs = given.timeoutMs ?? SESSION_DEFAULTS.timeoutMs;
  if (raw !== undefined && raw !== "") {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 2_147_483_647)
      throw new TypeError(
        `${TIMEOUT_ENV} must be a whole number of milliseconds from 0 (no limit) to 2147483647; got ${JSON.stringify(raw)}`,
      );
    timeoutMs = n;
  }
  return {
    ...given,
    timeoutMs,
    queue: given.queue ?? SESSION_DEFAULTS.queue,
    concurrency: given.concurrency ?? SESSION_DEFAULTS.concurrency,
    evalOverHttp: given.evalOverHttp === true,
  };
}
