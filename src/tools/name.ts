/** @module The rule a tool's name follows. */
import { ToolDefinitionError } from "./errors.ts";

/** The names every major client and model API accepts (stricter than the spec's guidance). */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Checks a tool's name against {@link TOOL_NAME}.
 * @param name - the `name` given to `tool()`, of any type.
 * @throws ToolDefinitionError saying which characters are accepted.
 */
export function checkToolName(name: unknown): asserts name is string {
  if (name === undefined)
    throw new ToolDefinitionError(
      `tool() needs a "name": 1-64 characters from A-Z a-z 0-9 _ - (e.g. name: "add_numbers"); put a display name in "title"`,
    );
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new ToolDefinitionError(
      `tool name ${JSON.stringify(name)} is not accepted: use 1-64 characters from A-Z a-z 0-9 _ - (no dots, slashes or spaces); put a display name in "title"`,
    );
  }
}
