/** @module The typed errors a tool sees when it asks the client (elicitation, sampling, roots) and the ask cannot be answered. */

/** Why an ask failed; the tool may catch {@link AskError} and branch on `code`. */
export type AskErrorCode =
  /** The client did not advertise the capability (or the mode) the ask needs, in the version in force. */
  | "unsupported"
  /** The client's answer does not match what was asked (the elicitation schema, or the result shape). */
  | "invalid-answer"
  /** The client answered with a JSON-RPC error. */
  | "client-error"
  /** No answer within the server's ask timeout (legacy eras). */
  | "timeout"
  /** The tool's call was cancelled, timed out or the server shut down while waiting. */
  | "cancelled"
  /** The ask itself is malformed: a schema elicitation cannot carry, a duplicate key, a bad URL. */
  | "bad-request";

/**
 * A failed `ctx.elicit` / `ctx.sample` / `ctx.roots`. Uncaught, it becomes the tool's `isError`
 * result (`Tool <name> failed: <message>`), e.g. `the client does not support elicitation` — except
 * `unsupported` at 2026-07-28, which the spec makes a -32021 MissingRequiredClientCapability error
 * (MCP 2026-07-28 basic/index "Per-request protocol fields").
 */
export class AskError extends Error {
  /**
   * @param code - see {@link AskErrorCode}.
   * @param message - one sentence a model can read.
   * @param data - `unsupported`: the missing capabilities (a ClientCapabilities object, e.g. `{ sampling: {} }`;
   *   at 2026-07-28 an uncaught one becomes error -32021 with `data.requiredCapabilities`);
   *   `client-error`: the client's JSON-RPC error; `invalid-answer`: the issues.
   */
  constructor(
    readonly code: AskErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "AskError";
  }
}

/**
 * A schema passed to `elicitation()` that the requested-schema subset of the version cannot carry
 * (an author's mistake: thrown at definition when the form is built at module level).
 */
export class ElicitSchemaError extends Error {
  readonly code = "ELICIT_SCHEMA";
  constructor(message: string) {
    super(message);
    this.name = "ElicitSchemaError";
  }
}
