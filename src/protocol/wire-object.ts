/** @module wireObject(): a valibot loose object that refuses arrays, for every params object the MCP schema types as an object (valibot's object schemas accept an array). */
import * as v from "valibot";

/**
 * `v.looseObject(entries, message)` that also refuses an array: `capabilities: []` or `params: []` is -32602
 * like any other malformed params (MCP basic/lifecycle: InitializeRequest; JSON-RPC params of MCP requests are
 * objects), not an empty object.
 * @param entries - the known keys and their schemas (other keys pass through).
 * @param message - the issue message for a value that is not an object, or is an array.
 * @returns the schema.
 */
export function wireObject<const E extends v.ObjectEntries>(entries: E, message: string) {
  // The array check comes first: looseObject's output is a new plain object, so a check after it sees no array.
  return v.pipe(
    v.custom<unknown>((x) => !Array.isArray(x), message),
    v.looseObject(entries, message),
  );
}
