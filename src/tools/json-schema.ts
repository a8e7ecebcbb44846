/** @module A tool's JSON Schemas: converted from valibot or another Standard Schema, or a raw one checked and normalized. */
import { annotations } from "../protocol/x-mcp-header.ts";
import { logLine } from "../runtime/log-name.ts";
import {
  normalizeJsonSchema,
  normalizeRawSchema,
  valibotToJsonSchema,
  type JsonSchema,
} from "../schema/json-schema.ts";
import { findPath, findUnconvertible } from "../schema/schema-node.ts";
import type { LeftOut } from "../schema/exact.ts";
import { contract } from "../runtime/contract.ts";
import { standardToJsonSchema, vendorOf, type StandardSchemaV1 } from "../schema/standard.ts";
import { ToolDefinitionError } from "./errors.ts";
import { isValibot } from "./schema-kind.ts";
import type { AnySchema } from "./types.ts";

/** The `inputSchema` of a tool without arguments. */
export const EMPTY_INPUT: JsonSchema = Object.freeze({ type: "object", properties: {} }) as JsonSchema;

/** What to write instead of a valibot type JSON Schema has no word for. */
const HINTS: Record<string, string> = {
  date: "accept an ISO 8601 string instead, e.g. v.pipe(v.string(), v.isoTimestamp())",
  bigint: "accept a decimal string (v.pipe(v.string(), v.digits())) or a number instead",
  map: "use v.record(v.string(), …) instead",
  set: "use v.array(…) instead",
};

/** Verbatim raw schemas → the normalized copy Ajv (2020-12) compiles (src/tools/validate.ts). */
export const validationCopy = new WeakMap<object, JsonSchema>();

/**
 * The JSON Schema of a valibot or other Standard Schema, normalized.
 * @throws ToolDefinitionError naming the field that JSON Schema cannot express, and what to write instead.
 */
export function convert(toolName: string, what: "input" | "output", schema: AnySchema): JsonSchema {
  if (!isValibot(schema)) return convertStandard(toolName, what, schema);
  const leftOut: LeftOut[] = [];
  try {
    const converted = valibotToJsonSchema(schema, what, (l) => leftOut.push(l));
    for (const l of leftOut) {
      const field = findPath(schema, (node) => node === l.action);
      warnSchema(
        `tool "${toolName}": ${what} field "${field ?? "(root)"}": ${l.what} is left out of the advertised JSON Schema (${l.why ?? "JSON Schema cannot say it"}); ` +
          `the server still checks it`,
      );
    }
    return converted;
  } catch (e) {
    const message = String((e as Error).message);
    const m = /The "([^"]+)" (schema|action)/.exec(message);
    const type = m?.[1];
    const field = type ? findUnconvertible(schema, type) : undefined;
    const hint =
      m?.[2] === "action"
        ? `end the pipe with a schema of the result type, e.g. v.pipe(v.string(), v.transform(Number), v.number())`
        : ((type && HINTS[type]) ?? `use a JSON type there`);
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema${field ? ` field "${field}"` : ""} cannot be expressed in JSON Schema` +
        `${type ? ` (v.${camel(type)}())` : ` (${message})`}: ${hint}, or pass a raw ${what}Schema.`,
    );
  }
}

const warned = new Set<string>();

/**
 * One warning about an advertised schema, once per process: into the build's check run record
 * (printed by `mcpbin build`), else on stderr (`mcpbin dev`, a script run from source).
 */
function warnSchema(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  const sink = contract().schemaWarnings;
  if (sink) sink.push(message);
  else logLine(`warning: ${message}`);
}

/** A Standard Schema's JSON Schema by its library's converter, normalized like a valibot one. */
function convertStandard(toolName: string, what: "input" | "output", schema: StandardSchemaV1): JsonSchema {
  const vendor = vendorOf(schema);
  let converted: JsonSchema | undefined;
  try {
    converted = standardToJsonSchema(schema, what);
  } catch (e) {
    const message = String((e as Error)?.message ?? e)
      .replace(/\s+/g, " ")
      .trim();
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema (${vendor}) cannot be expressed in JSON Schema (${message}): use a JSON type there, or pass a raw ${what}Schema.`,
    );
  }
  if (typeof converted !== "object" || converted === null) {
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema is a Standard Schema from "${vendor}" without a JSON Schema converter (~standard.jsonSchema, toJSONSchema() or toJsonSchema()): use valibot, zod 4 or arktype, or pass a raw ${what}Schema`,
    );
  }
  try {
    return normalizeJsonSchema(converted);
  } catch (e) {
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema (${vendor}) converted to a JSON Schema mcpbin cannot send: ${(e as Error).message}`,
    );
  }
}

/** valibot's snake_case type name as its function's name (`exact_optional` → `exactOptional`). */
function camel(type: string): string {
  return type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Checks that an input schema has an object root (MCP Tool.inputSchema), giving it `properties` when it has none.
 * @throws ToolDefinitionError when the root is not an object.
 */
export function objectRoot(toolName: string, what: string, s: JsonSchema): JsonSchema {
  if (s.type !== "object") {
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema must be an object at its root (MCP Tool.${what}Schema has "type": "object"); ` +
        `use v.object({...}) (or v.strictObject/v.looseObject) and put alternatives inside a field`,
    );
  }
  return s.properties === undefined ? { ...s, properties: {} } : s;
}

/** The schema to advertise: the normalized one, or with `verbatimSchemas` the author's own (validated through the normalized copy). */
export function sent(def: { verbatimSchemas?: boolean }, normalized: JsonSchema, original: JsonSchema): JsonSchema {
  if (!def.verbatimSchemas) return normalized;
  validationCopy.set(original, normalized);
  return original;
}

/**
 * A raw `inputSchema`/`outputSchema`, checked and normalized (src/schema/json-schema.ts).
 * @throws ToolDefinitionError with the schema's problem.
 */
export function raw(toolName: string, what: string, s: JsonSchema): JsonSchema {
  let normalized: JsonSchema;
  try {
    normalized = normalizeRawSchema(s);
  } catch (e) {
    throw new ToolDefinitionError(`tool "${toolName}": ${what}Schema: ${(e as Error).message}`);
  }
  // A client over Streamable HTTP must leave out a tool whose x-mcp-header annotations break the rules: say so now.
  const headers = what === "input" ? annotations(s) : [];
  if (typeof headers === "string")
    throw new ToolDefinitionError(
      `tool "${toolName}": inputSchema: ${headers} (MCP 2026-07-28 x-mcp-header rules; clients would leave the tool out)`,
    );
  return normalized;
}
