/** @module JSON Schema for tools: valibot → JSON Schema 2020-12 once at definition, normalized so every client accepts it. */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { GenericSchema } from "valibot";
import { exactHooks, type LeftOut } from "./exact.ts";
import { forEachNode, type SchemaNode } from "./schema-node.ts";

/** A JSON Schema object as sent in `inputSchema` / `outputSchema`. */
export type JsonSchema = Record<string, unknown>;

/** Transformations that change the value's type (the converter's own list); after the last schema of an output pipe they make the result type unknowable. */
const TYPE_CHANGING = new Set([
  "find_item",
  "parse_json",
  "raw_transform",
  "reduce_items",
  "stringify_json",
  "to_bigint",
  "to_boolean",
  "to_date",
  "to_number",
  "to_string",
  "transform",
]);

/**
 * Converts a valibot schema to the JSON Schema mcpbin sends (MCP 2025-11-25 basic/index "JSON Schema Usage").
 * - `mode: "input"` describes what a client may send: a pipe is read up to its first type-changing
 *   transformation, and `v.optional(x, default)` fields are not required.
 * - `mode: "output"` describes what the server sends after parsing: a pipe is read from its last
 *   schema, defaulted fields are present, and a type-changing transformation after it is refused.
 * Actions JSON Schema cannot say (`v.check`, `v.custom` schemas, `v.brand`, `v.trim`, …) are left out of
 * the schema and enforced on the server, which parses every argument and structured result with valibot.
 * The result is normalized by {@link normalizeJsonSchema}.
 * @param schema - a valibot schema.
 * What JSON Schema cannot say exactly is never advertised stricter than valibot checks it: it is translated
 * exactly or left out (src/schema/exact.ts).
 * @param mode - which side of the schema to describe; default "input".
 * @param leftOut - called for each validation left out of the schema (for the author's warning).
 * @returns the normalized JSON Schema.
 * @throws Error from the converter when a part cannot be expressed (`The "date" schema …`,
 *   `The "transform" action …`); {@link findUnconvertible} names the field.
 */
export function valibotToJsonSchema(
  schema: GenericSchema,
  mode: "input" | "output" = "input",
  leftOut: (l: LeftOut) => void = () => {},
): JsonSchema {
  const hooks = exactHooks(mode, leftOut, {
    // An action the converter does not know is kept server-side, unless it changes an output's type.
    overrideAction: (ctx) =>
      ctx.errors && !(mode === "output" && TYPE_CHANGING.has(ctx.valibotAction.type)) ? ctx.jsonSchema : undefined,
    overrideSchema: (ctx) => {
      // v.custom() is a whole-value check: unconstrained in JSON Schema, enforced on the server.
      if (ctx.valibotSchema.type === "custom") return {};
      if (mode === "output") requireDefaulted(ctx.valibotSchema as unknown as SchemaNode, ctx.jsonSchema as JsonSchema);
      return undefined;
    },
  });
  const raw = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: mode,
    errorMode: "throw",
    overrideAction: hooks.overrideAction as never,
    overrideSchema: hooks.overrideSchema as never,
  }) as JsonSchema;
  if (mode === "input") cutByTransformation(schema, leftOut);
  return normalizeJsonSchema(raw);
}

/**
 * Input mode reads a pipe up to its first type-changing transformation (`v.transform`, `v.toNumber`, …):
 * the checks after it are of the transformed value and are not advertised. Reports each such check.
 */
function cutByTransformation(schema: GenericSchema, leftOut: (l: LeftOut) => void): void {
  forEachNode(schema, (node) => {
    if (!Array.isArray(node.pipe)) return;
    const flat = flatPipe(node.pipe as SchemaNode[]);
    const cut = flat.findIndex(
      (item, i) => i > 0 && item.kind === "transformation" && TYPE_CHANGING.has(String(item.type)),
    );
    if (cut === -1) return;
    const after = flat.slice(cut + 1).filter((item) => item.kind === "validation" || item.kind === "schema");
    if (after.length > 0)
      leftOut({
        action: after[0]!,
        what: `a check after v.${String(flat[cut]!.type).replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}()`,
        why: "JSON Schema describes the value before it",
      });
  });
}

/** A pipe with its nested pipes expanded, as the converter reads it. */
function flatPipe(pipe: SchemaNode[], depth = 0): SchemaNode[] {
  return pipe.flatMap((item) => (Array.isArray(item.pipe) && depth < 32 ? flatPipe(item.pipe, depth + 1) : [item]));
}

/** After parsing, a field with a default is always present: the output side lists it as required. */
function requireDefaulted(node: SchemaNode, json: JsonSchema): void {
  if (!node.entries || !Array.isArray(json.required)) return;
  for (const [key, entry] of Object.entries(node.entries)) {
    if (entry.default !== undefined && !json.required.includes(key)) json.required.push(key);
  }
}

const DIALECT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DIALECT_OLD = /^https?:\/\/json-schema\.org\/(draft-0[4-7]\/schema|draft\/2019-09\/schema)#?$/;

/**
 * Prepares an author's raw JSON Schema for the wire like a converted one. No `$schema` means 2020-12;
 * a draft-04…2019-09 `$schema` is translated (`definitions` → inlined, array `items` → `prefixItems`,
 * `additionalItems` → `items`), then {@link normalizeJsonSchema} applies.
 * @param raw - the `inputSchema` / `outputSchema` an author gave.
 * @returns the normalized schema (a new object; `raw` is not changed).
 * @throws Error naming the problem: not an object, an unknown dialect, or a `$ref` that is not local.
 */
export function normalizeRawSchema(raw: JsonSchema): JsonSchema {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new Error("a raw JSON Schema must be an object");
  const dialect = raw.$schema;
  if (
    dialect !== undefined &&
    !(typeof dialect === "string" && (DIALECT_2020.test(dialect) || DIALECT_OLD.test(dialect)))
  ) {
    throw new Error(
      `the JSON Schema dialect ${JSON.stringify(dialect)} is not supported: write 2020-12 and leave "$schema" out`,
    );
  }
  const old = typeof dialect === "string" && DIALECT_OLD.test(dialect);
  const check = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(check);
    if (typeof node !== "object" || node === null) return node;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && !v.startsWith("#"))
        throw new Error(`"$ref": ${JSON.stringify(v)} is not local: inline the schema it points to`);
      if (old && k === "items" && Array.isArray(v)) out.prefixItems = check(v);
      else if (old && k === "additionalItems") out.items = check(v);
      else out[k] = check(v);
    }
    return out;
  };
  return normalizeJsonSchema(check(raw) as JsonSchema);
}

const LOCAL_REF = /^#\/(\$defs|definitions)\/(.+)$/;

/** The definition a local ref points to, keyed "$defs/Name" or "definitions/Name". */
function refKey(ref: unknown): string | undefined {
  const m = typeof ref === "string" ? LOCAL_REF.exec(ref) : null;
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/**
 * Normalizes a JSON Schema for the wire: drops `$schema` at every depth, inlines `$ref`s to
 * non-recursive definitions (a recursive one keeps a root `$defs` entry and local `#/$defs/…` refs),
 * adds `type` to every `enum`/`const`, and drops an empty `required`.
 * @param raw - a 2020-12 schema (or one `definitions` away from it).
 * @returns a new schema; `raw` is not changed.
 */
export function normalizeJsonSchema(raw: JsonSchema): JsonSchema {
  const defs = new Map<string, JsonSchema>();
  for (const where of ["$defs", "definitions"] as const) {
    const d = raw[where];
    if (typeof d === "object" && d !== null)
      for (const [k, v] of Object.entries(d)) defs.set(`${where}/${k}`, v as JsonSchema);
  }
  const recursive = defs.size > 0 ? recursiveDefs(defs) : new Set<string>();
  const kept = new Map<string, string>(); // key → name under the root $defs
  const keep = (key: string): string => {
    let name = kept.get(key);
    if (name === undefined) {
      name = key.slice(key.indexOf("/") + 1);
      while ([...kept.values()].includes(name)) name += "_";
      kept.set(key, name);
    }
    return name;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const n = node as JsonSchema;
    const key = refKey(n.$ref);
    if (key !== undefined) {
      const target = defs.get(key);
      if (target === undefined) throw new Error(`"$ref": ${JSON.stringify(n.$ref)} does not resolve`);
      if (recursive.has(key)) return { ...walkProps(n), $ref: `#/$defs/${keep(key)}` };
      // A sibling keyword next to "$ref" (2020-12 allows them) is kept beside the inlined schema.
      const inlined = walk(target) as JsonSchema;
      const rest = walkProps(n);
      return Object.keys(rest).length === 0 ? inlined : { allOf: [inlined], ...rest };
    }
    const out = walkProps(n);
    if (typeof n.$ref === "string") out.$ref = n.$ref; // "#" or another JSON pointer into this schema
    addTypeToEnum(out);
    if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
    return out;
  };
  const walkProps = (n: JsonSchema): JsonSchema => {
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(n)) {
      if (k !== "$schema" && k !== "$defs" && k !== "definitions" && k !== "$ref") out[k] = walk(v);
    }
    return out;
  };
  const root = walk(raw) as JsonSchema;
  if (kept.size > 0) {
    const out: Record<string, unknown> = {};
    for (const [key, name] of kept) out[name] = walk(defs.get(key)); // walking may add to `kept`
    root.$defs = out;
  }
  return root;
}

/** Keys of the definitions that reach themselves through local refs. */
function recursiveDefs(defs: ReadonlyMap<string, JsonSchema>): Set<string> {
  const edges = new Map<string, Set<string>>();
  const collect = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) for (const x of node) collect(x, into);
    else if (typeof node === "object" && node !== null) {
      for (const [k, v] of Object.entries(node)) {
        const key = k === "$ref" ? refKey(v) : undefined;
        if (key !== undefined) into.add(key);
        else collect(v, into);
      }
    }
  };
  for (const [key, s] of defs) collect(s, edges.set(key, new Set()).get(key)!);
  const out = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n === start) {
        out.add(start);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...(edges.get(n) ?? []));
    }
  }
  return out;
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
