/** @module The shape of the `sessions` option (docs/sessions.md), which serve(), the config file and src/sessions/ share: a leaf. */

/** The `sessions.workers` option (src/sessions/workers.ts). */
export interface WorkersOptions {
  /** The module each worker runs (it calls `session()`), relative to the server's working directory. */
  readonly module: string;
  /** How many workers run at once (default 1). */
  readonly max?: number;
}

/** The `sessions` option: a server that offers the tools of live sessions (docs/sessions.md). */
export interface SessionsOptions {
  /** Per call, ms, counted from its arrival (waiting included); default 120000; 0 = none. `MCPBIN_SESSION_TIMEOUT_MS` wins. */
  readonly timeoutMs?: number;
  /** Calls waiting per session at most (beyond those running); default 64. */
  readonly queue?: number;
  /** Calls running in one session at once; default 1 (the program is a person's: one at a time, as at a REPL). */
  readonly concurrency?: number;
  /** Worker sessions this server starts from a module: `{ module: "./worker.ts", max: 2 }`. */
  readonly workers?: WorkersOptions;
  /** Offer a session's `evaluate` tool over `--http` too (default false: only over stdio). */
  readonly evalOverHttp?: boolean;
  /** The session directory (default as session() finds it: `MCPBIN_SESSION_DIR`, `$XDG_RUNTIME_DIR/mcpbin`, …). */
  readonly dir?: string;
}
