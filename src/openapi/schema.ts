/** @module OpenAPI 3.1 Schema Objects → the JSON Schema (2020-12) of a tool: $refs as $defs, readOnly left out of inputs, OpenAPI-only keywords dropped. */
import type { JsonSchema } from "../schema/json-schema.ts";
import { OpenApiError, type OpenApiDocument } from "./document.ts";

/**
 * The value a local JSON pointer (`#/components/schemas/Pet`) names in the document.
 * @returns the value, or undefined when nothing is there.
 */
export function atPointer(doc: OpenApiDocument, ref: string): unknown {
  if (ref === "#") return doc;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Follows `$ref` chains of a Parameter, Request Body or Response Object (local refs only).
 * @throws OpenApiError naming the ref when it does not resolve or loops.
 */
export function deref<T = Record<string, unknown>>(doc: OpenApiDocument, node: unknown, where: string): T {
  const seen = new Set<string>();
  while (typeof node === "object" && node !== null && typeof (node as { $ref?: unknown }).$ref === "string") {
    const ref = (node as { $ref: string }).$ref;
    if (seen.has(ref)) throw new OpenApiError(`${where}: "$ref": ${JSON.stringify(ref)} refers to itself`);
    seen.add(ref);
    const next = atPointer(doc, ref);
    if (next === undefined) throw new OpenApiError(`${where}: "$ref": ${JSON.stringify(ref)} does not resolve`);
    node = next;
  }
  return node as T;
}

/** Keywords of the OpenAPI dialect that are not JSON Schema validation, or are noise for a model. */
const DROPPED = new Set([
  "discriminator",
  "xml",
  "externalDocs",
  "example",
  "examples",
  "nullable",
  "readOnly",
  "writeOnly",
  "$schema",
  // Meaningful only in a meta-schema; the Swagger Petstore 3.1 puts one (a string, not the object 2020-12 asks for) in a schema.
  "$vocabulary",
  "$id",
  "$anchor",
  "$comment",
  "$dynamicAnchor",
  "$dynamicRef",
  "$defs",
  "definitions",
]);
/** Keywords whose value is one schema. */
const ONE = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
]);
/** Keywords whose value is a list of schemas. */
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to schemas. */
const MAP = new Set(["patternProperties", "dependentSchemas"]);

/**
 * Converts the schemas of one tool, collecting every referenced schema once under the root's `$defs`
 * (tool() then inlines the ones that are not recursive: src/schema/json-schema.ts normalizeJsonSchema).
 */
export class SchemaConverter {
  private readonly names = new Map<string, string>(); // pointer → $defs name
  private readonly used = new Set<string>();
  private readonly defs: Record<string, JsonSchema> = {};
  private readonly pending: string[] = [];

  /**
   * @param doc - the 3.1 document.
   * @param mode - "input" leaves `readOnly` properties out, "output" leaves `writeOnly` ones out.
   * @param where - names the operation in messages.
   */
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly mode: "input" | "output",
    private readonly where: string,
  ) {}

  /** One schema, its refs pointing into the `$defs` {@link finish} adds. */
  convert(node: unknown): JsonSchema | boolean {
    if (typeof node === "boolean") return node;
    if (typeof node !== "object" || node === null || Array.isArray(node)) return {};
    const n = node as Record<string, unknown>;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(n)) {
      if (DROPPED.has(k) || k.startsWith("x-")) continue;
      if (k === "$ref" && typeof v === "string") out.$ref = this.ref(v);
      else if (k === "properties" && typeof v === "object" && v !== null) {
        const props: Record<string, unknown> = {};
        const dropped: string[] = [];
        for (const [p, s] of Object.entries(v)) {
          if (this.hidden(s)) dropped.push(p);
          else props[p] = this.convert(s);
        }
        out.properties = props;
        if (dropped.length > 0 && Array.isArray(n.required))
          out.required = (n.required as string[]).filter((r) => !dropped.includes(r));
      } else if (k === "required" && out.required !== undefined) continue;
      else if (ONE.has(k)) out[k] = this.convert(v);
      else if (LIST.has(k) && Array.isArray(v)) out[k] = v.map((x) => this.convert(x));
      else if (MAP.has(k) && typeof v === "object" && v !== null)
        out[k] = Object.fromEntries(Object.entries(v).map(([a, b]) => [a, this.convert(b)]));
      else out[k] = v;
    }
    if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
    // A 3.0 `nullable` the upgrade left (e.g. beside a $ref): a union with null.
    if (n.nullable === true) return nullable(out);
    return out;
  }

  /** The root schema with the `$defs` its refs need. */
  finish(root: JsonSchema): JsonSchema {
    while (this.pending.length > 0) {
      const ptr = this.pending.shift()!;
      this.defs[this.names.get(ptr)!] = this.convert(atPointer(this.doc, ptr)) as JsonSchema;
    }
    return Object.keys(this.defs).length > 0 ? { ...root, $defs: { ...this.defs } } : root;
  }

  /** True when a property is not part of this side: readOnly in inputs, writeOnly in outputs (through refs). */
  private hidden(s: unknown): boolean {
    const key = this.mode === "input" ? "readOnly" : "writeOnly";
    const seen = new Set<unknown>();
    while (typeof s === "object" && s !== null && !seen.has(s)) {
      seen.add(s);
      const o = s as Record<string, unknown>;
      if (o[key] === true) return true;
      if (typeof o.$ref !== "string") return false;
      s = atPointer(this.doc, o.$ref);
    }
    return false;
  }

  private ref(ref: string): string {
    if (!ref.startsWith("#"))
      throw new OpenApiError(
        `${this.where}: "$ref": ${JSON.stringify(ref)} is not local (external refs are bundled at load)`,
      );
    let name = this.names.get(ref);
    if (name === undefined) {
      if (atPointer(this.doc, ref) === undefined)
        throw new OpenApiError(`${this.where}: "$ref": ${JSON.stringify(ref)} does not resolve`);
      const last = ref
        .slice(ref.lastIndexOf("/") + 1)
        .replaceAll("~1", "/")
        .replaceAll("~0", "~");
      const base = last.replace(/[^A-Za-z0-9_.-]+/g, "_") || "schema";
      name = base;
      for (let i = 2; this.used.has(name); i++) name = `${base}_${i}`;
      this.used.add(name);
      this.names.set(ref, name);
      this.pending.push(ref);
    }
    return `#/$defs/${name}`;
  }
}

/** The schema, also accepting null. */
export function nullable(s: JsonSchema): JsonSchema {
  const t = s.type;
  if (typeof t === "string")
    return {
      ...s,
      type: [t, "null"],
      ...(Array.isArray(s.enum) && !s.enum.includes(null) ? { enum: [...s.enum, null] } : {}),
    };
  if (Array.isArray(t)) return t.includes("null") ? s : { ...s, type: [...t, "null"] };
  return { anyOf: [s, { type: "null" }] };
}
