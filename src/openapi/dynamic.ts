/** @module Dynamic mode: list_operations, describe_operation and call_operation, a tools/list of three tools whatever the API's size. */
import * as v from "valibot";
import { textContent } from "../shared/content-blocks.ts";
import { toolResult } from "../shared/result.ts";
import { normalizeRawSchema, type JsonSchema } from "../schema/json-schema.ts";
import { loadAjv, validateJson } from "../tools/validate.ts";
import { tool } from "../tools/define.ts";
import type { Tool } from "../tools/types.ts";
import type { OpenApiDocument } from "./document.ts";
import type { Operation } from "./operations.ts";
import type { ToolResult } from "../shared/result.ts";

/** Sends one operation's request with validated arguments and returns the response as a result. */
export type Caller = (op: Operation, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>;

/** Words of a search: lower case, split on anything that is not a letter or digit. */
function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The three tools of dynamic mode over these operations.
 * @param doc - the document (its title names the API in the descriptions).
 * @param ops - the selected operations.
 * @param call - sends one operation's request.
 * @returns list_operations, describe_operation, call_operation.
 */
export function dynamicTools(doc: OpenApiDocument, ops: readonly Operation[], call: Caller): Tool[] {
  const info = (doc.info ?? {}) as { title?: unknown };
  const api = typeof info.title === "string" ? info.title.slice(0, 80) : "the API";
  const byName = new Map(ops.map((o) => [o.name, o]));
  const haystacks = new Map(
    ops.map((o) => [
      o,
      [o.name, o.operationId ?? "", o.method, o.path, o.summary ?? "", ...o.tags].join(" ").toLowerCase(),
    ]),
  );
  const validators = new Map<Operation, JsonSchema>();
  const unknown = (name: string) => {
    const w = words(name);
    const near = ops
      .filter((o) => w.some((x) => o.name.includes(x)))
      .slice(0, 5)
      .map((o) => o.name);
    return toolResult({
      isError: true,
      content: [
        textContent(
          `No operation named ${JSON.stringify(name)}; list_operations searches them${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}`,
        ),
      ],
    });
  };

  const list = tool({
    name: "list_operations",
    title: `Search ${api}`,
    description: `Search the ${ops.length} operations of ${api}. Returns name, HTTP method, path and summary; then describe_operation shows one's arguments and call_operation runs it.`,
    input: v.object({
      search: v.optional(
        v.pipe(
          v.string(),
          v.description(
            "Words to look for in the name, path, summary and tags (all must match); empty lists everything",
          ),
        ),
      ),
      tag: v.optional(v.pipe(v.string(), v.description("Only operations with this tag"))),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), 50),
      offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ search, tag, limit, offset }) => {
      const w = words(search ?? "");
      const found = ops.filter(
        (o) =>
          (tag === undefined || o.tags.some((t) => t.toLowerCase() === tag.toLowerCase())) &&
          w.every((x) => haystacks.get(o)!.includes(x)),
      );
      const page = found.slice(offset, offset + limit);
      const operations = page.map((o) => ({
        name: o.name,
        method: o.method,
        path: o.path,
        ...(o.summary ? { summary: o.summary } : {}),
      }));
      const more =
        found.length > offset + limit ? `\n(${found.length - offset - limit} more: offset ${offset + limit})` : "";
      const text = `${found.length} operation${found.length === 1 ? "" : "s"}${found.length ? ":" : ""}\n${page.map((o) => `${o.name}  ${o.method} ${o.path}${o.summary ? `  ${o.summary}` : ""}`).join("\n")}${more}`;
      return toolResult({ structuredContent: { total: found.length, operations }, content: [textContent(text)] });
    },
  });

  const describe = tool({
    name: "describe_operation",
    title: `Describe an operation of ${api}`,
    description: "The description and the input JSON Schema of one operation (by the name list_operations gives).",
    input: v.object({ name: v.pipe(v.string(), v.description("The operation's name from list_operations")) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: ({ name }) => {
      const op = byName.get(name);
      if (!op) return unknown(name);
      const d = {
        name: op.name,
        method: op.method,
        path: op.path,
        description: op.description,
        ...(op.tags.length ? { tags: op.tags } : {}),
        ...(op.security.length ? { security: op.security.map((s) => Object.keys(s)) } : {}),
        inputSchema: op.inputSchema(),
      };
      return toolResult({ structuredContent: d, content: [textContent(JSON.stringify(d))] });
    },
  });

  const callOp = tool({
    name: "call_operation",
    title: `Call an operation of ${api}`,
    description:
      "Runs one operation with arguments matching its input schema (see describe_operation); they are checked before the request is sent.",
    input: v.object({
      name: v.pipe(v.string(), v.description("The operation's name from list_operations")),
      arguments: v.optional(
        v.pipe(v.record(v.string(), v.unknown()), v.description("The operation's arguments, an object")),
        {},
      ),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    run: async ({ name, arguments: args }, ctx) => {
      const op = byName.get(name);
      if (!op) return unknown(name);
      let schema = validators.get(op);
      if (!schema) validators.set(op, (schema = normalizeRawSchema(op.inputSchema())));
      await loadAjv();
      const r = validateJson(schema, args);
      if (!r.ok)
        return toolResult({
          isError: true,
          content: [
            textContent(
              `Invalid arguments for operation ${name} (nothing was sent; describe_operation shows its schema):\n${r.issues.join("\n")}`,
            ),
          ],
        });
      return call(op, args as Record<string, unknown>, ctx.signal);
    },
  });
  return [list, describe, callOp];
}
