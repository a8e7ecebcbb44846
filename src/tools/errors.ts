/** @module The local errors of a tool: a definition mistake, and arguments that do not match. */

export { ToolDefinitionError } from "../shared/definition-error.ts";

/** Arguments that do not match a tool's input schema (thrown by a direct call). */
export class ToolArgumentsError extends Error {
  readonly code = "TOOL_ARGUMENTS";
  /** @param issues - one `path: message` line per problem. */
  constructor(
    readonly tool: string,
    readonly issues: readonly string[],
  ) {
    super(`Invalid arguments for tool ${tool}:\n${issues.join("\n")}`);
    this.name = "ToolArgumentsError";
  }
}
