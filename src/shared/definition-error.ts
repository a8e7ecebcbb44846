/** @module The error of an author's definition mistake (a tool's, or a server option's), thrown by the tools and by the core's option checks alike: a shared shape (src/shared/), imports nothing. */

/** A tool author's mistake, found at definition; the message names the tool and what to change. */
export class ToolDefinitionError extends Error {
  readonly code = "TOOL_DEFINITION";
  constructor(message: string) {
    super(message);
    this.name = "ToolDefinitionError";
  }
}
