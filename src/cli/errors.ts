/** @module CLI errors: one clear line on stderr and a nonzero exit. */

/** A usage or input mistake at the command line; printed as `mcpbin: <message>`. */
export class CliError extends Error {
  readonly code = "CLI";
  /** @param exitCode - the process exit code (2 for usage, 1 otherwise). */
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}
