/** @module tools/call: argument parsing, running the tool, and shaping its return value into a CallResult. */
import { wellFormedLine } from "../protocol/well-formed.ts";
import { isToolResult, type ContentBlock } from "../shared/result.ts";
import { JsonEncodeError, textOf, toJsonValue, type JsonOptions } from "../shared/json.ts";
import { outputOf } from "./schemas.ts";
import { validateJson, validateWith } from "./validate.ts";
import type { Tool } from "./types.ts";
import type { CallResult } from "../protocol/project.ts";

/**
 * An isError result with one text block (MCP server/tools "Error Handling": tool execution errors).
 * @param text - what the model reads.
 * @returns the CallResult.
 */
export function errorResult(text: string): CallResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Shapes what `run` returned into a CallResult (MCP server/tools CallToolResult).
 * - `toolResult(...)`: content kept as given; `structuredContent` without content gets one JSON text
 *   block (also for a tool with a `ui` app whose content has no text block); `isError: true` drops
 *   `structuredContent` (its JSON text stands in when there is no content).
 * - With an output schema, an ordinary value is the structured content (plus its JSON text copy).
 * - Otherwise one text block (see {@link textOf}).
 * Structured content is checked against the tool's output schema; a mismatch or a value JSON cannot
 * carry becomes an isError result naming the path.
 * @param t - the tool that ran.
 * @param value - what `run` returned (already awaited).
 * @param json - the server's resolved payload JSON options.
 * @returns the result before projection onto the protocol version in force.
 * @throws only what an unexpected bug throws; JSON encoding failures are returned as isError results.
 */
export function shapeResult(t: Tool, value: unknown, json: JsonOptions | undefined): CallResult {
  try {
    const hasOutput = t.outputSchema !== undefined;
    if (isToolResult(value)) {
      const content = (value.content ?? []) as ContentBlock[];
      const out: CallResult = { content: content.slice() };
      if (value.meta !== undefined) out._meta = value.meta;
      if (value.isError) {
        // An error result never carries structuredContent; without content, its JSON text stands in.
        if (value.content === undefined && value.structuredContent !== undefined) {
          out.content = [
            {
              type: "text",
              text: wellFormedLine(JSON.stringify(toJsonValue(value.structuredContent, json)) ?? "null"),
            },
          ];
        }
        out.isError = true;
        return out;
      }
      if (value.structuredContent !== undefined) {
        const sc = checkOutput(t, toJsonValue(value.structuredContent, json));
        if (typeof sc === "string") return errorResult(sc);
        out.structuredContent = sc.value;
        if (value.content === undefined)
          out.content = [{ type: "text", text: wellFormedLine(JSON.stringify(sc.value)) }];
        // A tool with a view still speaks to text-only hosts (MCP Apps: content is for the model).
        else if (t.ui && !content.some((b) => b.type === "text"))
          out.content.push({ type: "text", text: wellFormedLine(JSON.stringify(sc.value)) });
      } else if (hasOutput) {
        return errorResult(`Tool ${t.name} declares an output schema but returned no structuredContent`);
      }
      return out;
    }
    if (hasOutput) {
      const sc = checkOutput(t, toJsonValue(value, json));
      if (typeof sc === "string") return errorResult(sc);
      return {
        content: [{ type: "text", text: wellFormedLine(JSON.stringify(sc.value)) }],
        structuredContent: sc.value,
      };
    }
    return { content: [{ type: "text", text: textOf(value, json) }] };
  } catch (e) {
    if (e instanceof JsonEncodeError)
      return errorResult(`Tool ${t.name} returned a value JSON cannot carry: ${e.message}`);
    throw e;
  }
}

/** Checks structured content against the output schema: the parsed value, or an error text. */
function checkOutput(t: Tool, value: unknown): { value: unknown } | string {
  const output = outputOf(t);
  const outputSchema = t.outputSchema;
  if (output) {
    const r = validateWith(output, value, "output");
    if (r.ok) return { value: r.value };
    return `Tool ${t.name} returned structured content that does not match its output schema:\n${r.issues.join("\n")}`;
  }
  if (outputSchema) {
    const r = validateJson(outputSchema, value);
    if (r.ok) return { value };
    return `Tool ${t.name} returned structured content that does not match its output schema:\n${r.issues.join("\n")}`;
  }
  return { value };
}

/**
 * The isError text for arguments that fail the input schema (the 2025-11-25 rule, applied to every version).
 * @param t - the tool.
 * @param issues - one `path: message` line per problem.
 * @returns `Invalid arguments for tool <name>:` and the lines.
 */
export function invalidArgumentsText(t: Tool, issues: readonly string[]): string {
  return `Invalid arguments for tool ${t.name}:\n${issues.join("\n")}`;
}

/**
 * The isError text for a tool that threw: the thrown message itself, as mcplite and the official SDKs
 * send it (the model reads what the tool said; the tool's name stays in the span and the stderr line,
 * and the stack goes to stderr, never to the client).
 * @param _t - the tool.
 * @param e - what it threw.
 * @returns the message: an Error's message (else its name), a string, or JSON.
 */
export function thrownText(_t: Tool, e: unknown): string {
  let message: string;
  try {
    message = messageOf(e);
  } catch {
    // A hostile value (a throwing `message` getter, a revoked Proxy) still yields a tool error.
    message = "the thrown value could not be read";
  }
  return message;
}

/** A readable message for anything thrown: an Error's message (else its name), a string, or JSON. */
function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === "string") return e;
  const m = (e as { message?: unknown } | null)?.message;
  if (typeof m === "string") return m;
  try {
    return JSON.stringify(e) ?? String(e);
  } catch {
    return String(e);
  }
}
