/** @module JSON Schema for tools: valibot → JSON Schema 2020-12 once at definition, normalized so every client accepts it. */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { GenericSchema } from "valibot";

/** A JSON Schema object as sent in `inputSchema` / `outputSchema`. */
export type JsonSchema = Record<string, unknown>;

/** Validation-only valibot actions: enforced on the server, not advertised (JSON Schema cannot say them). */
const SERVER_ONLY_ACTIONS = new Set(["check", "custom", "check_items", "partial_check", "raw_check", "raw_transform", "transform"]);

/**
 * Converts a valibot schema to the JSON Schema mcpbin sends (MCP 2025-11-25 basic/index "JSON Schema Usage"):
 * the input shape (defaults make a field optional), no `$schema`, local `$ref`s inlined (only a
 * recursive `v.lazy` keeps a root `$defs`), `type` on every `enum`/`const`, tuples as `prefixItems`.
 * Custom checks and transforms are validated on the server and left out of the schema.
 * @param schema - a valibot schema.
 * @returns the normalized JSON Schema.
 * @throws Error from the converter when a part cannot be expressed (date, bigint, function, …);
 *   {@link findUnconvertible} names the field.
 */
export function valibotToJsonSchema(schema: GenericSchema): JsonSchema {
  const raw = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "throw",
    overrideAction: (ctx) => (SERVER_ONLY_ACTIONS.has(ctx.valibotAction.type) ? ctx.jsonSchema : undefined),
  }) as JsonSchema;
  return normalizeJsonSchema(raw);
}

/**
 * Normalizes any JSON Schema for the wire: drops `$schema`, inlines non-recursive local refs,
 * types `enum`/`const`. Used for converted valibot schemas; raw `inputSchema`s pass through unchanged.
 */
export function normalizeJsonSchema(raw: JsonSchema): JsonSchema {
  const defs = (raw.$defs ?? raw.definitions) as Record<string, JsonSchema> | undefined;
  const keepDefs = new Set<string>();
  const walk = (node: unknown, expanding: string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, expanding));
    if (typeof node !== "object" || node === null) return node;
    const n = node as JsonSchema;
    const ref = typeof n.$ref === "string" ? n.$ref : undefined;
    const m = ref?.match(/^#\/(?:\$defs|definitions)\/(.+)$/);
    if (m && defs && m[1] !== undefined && defs[m[1]]) {
      const name = m[1];
      if (expanding.includes(name)) {
        keepDefs.add(name);
        return { $ref: `#/$defs/${name}` };
      }
      return walk(defs[name], [...expanding, name]);
    }
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(n)) {
      if (k === "$schema" || k === "$defs" || k === "definitions") continue;
      out[k] = walk(v, expanding);
    }
    addTypeToEnum(out);
    return out;
  };
  const root = walk(raw, []) as JsonSchema;
  if (keepDefs.size > 0 && defs) {
    // A recursive schema: keep the definitions it needs, each normalized, refs local.
    const kept: Record<string, unknown> = {};
    let added = true;
    while (added) {
      added = false;
      for (const name of keepDefs) {
        if (!(name in kept)) {
          kept[name] = walk(defs[name], [name]);
          added = true;
        }
      }
    }
    root.$defs = kept;
  }
  return root;
}

function jsonType(x: unknown): string | undefined {
  if (typeof x === "string") return "string";
  if (typeof x === "boolean") return "boolean";
  if (typeof x === "number") return Number.isInteger(x) ? "integer" : "number";
  if (x === null) return "null";
  return undefined;
}

function addTypeToEnum(s: JsonSchema): void {
  if (s.type !== undefined) {
    // The converter types a numeric picklist "number"; "integer" is exact when every value is one.
    if (s.type === "number" && Array.isArray(s.enum) && s.enum.every((x) => Number.isInteger(x))) s.type = "integer";
    return;
  }
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  if (!values || values.length === 0) return;
  const types = [...new Set(values.map(jsonType))];
  if (types.includes(undefined)) return;
  if (types.includes("integer") && types.includes("number")) types.splice(types.indexOf("integer"), 1);
  s.type = types.length === 1 ? types[0] : types;
}

interface SchemaNode {
  type?: string;
  kind?: string;
  entries?: Record<string, SchemaNode>;
  item?: SchemaNode;
  items?: SchemaNode[];
  wrapped?: SchemaNode;
  options?: SchemaNode[];
  key?: SchemaNode;
  value?: SchemaNode;
  rest?: SchemaNode;
  pipe?: SchemaNode[];
}

/**
 * Finds the first field whose valibot schema has the given type (e.g. "date"), for error messages.
 * @param schema - the root valibot schema.
 * @param type - the `type` of the schema or action the converter refused.
 * @returns a dotted path like `when` or `items[].at`, "(root)" for the root, or undefined.
 */
export function findUnconvertible(schema: GenericSchema, type: string): string | undefined {
  const seen = new Set<SchemaNode>();
  const visit = (node: SchemaNode | undefined, path: string): string | undefined => {
    if (!node || typeof node !== "object" || seen.has(node)) return undefined;
    seen.add(node);
    if (node.type === type) return path || "(root)";
    const join = (k: string) => (path ? `${path}.${k}` : k);
    const children: [SchemaNode | undefined, string][] = [];
    for (const [k, v] of Object.entries(node.entries ?? {})) children.push([v, join(k)]);
    if (node.item) children.push([node.item, `${path}[]`]);
    for (const [i, v] of (node.items ?? []).entries()) children.push([v, `${path}[${i}]`]);
    for (const v of node.options ?? []) children.push([v, path]);
    if (node.wrapped) children.push([node.wrapped, path]);
    if (node.key) children.push([node.key, `${path}{key}`]);
    if (node.value) children.push([node.value, `${path}{}`]);
    if (node.rest) children.push([node.rest, `${path}[]`]);
    for (const v of node.pipe ?? []) if (v !== node) children.push([v, path]);
    for (const [child, p] of children) {
      const found = visit(child, p);
      if (found) return found;
    }
    return undefined;
  };
  return visit(schema as unknown as SchemaNode, "");
}
