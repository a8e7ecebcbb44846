/** @module Build errors: a script or project the build cannot check or compile, said in one line that the CLI prints. */

/** A failed build step (the check run, a view bundle); the CLI prints `mcpbin: <message>` and exits with {@link exitCode}. */
export class BuildError extends Error {
  readonly code = "BUILD";
  /** @param exitCode - the process exit code (1 unless told). */
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "BuildError";
  }
}
