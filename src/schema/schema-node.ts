/** @module A valibot schema as a tree of nodes (schemas and pipe actions): finding a field by what it holds, visiting each node once. */
import type { GenericSchema } from "valibot";

/** One node of a valibot schema as the JSON Schema converter reads it: a schema or a pipe action. */
export interface SchemaNode {
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
  default?: unknown;
}

/**
 * Finds the first field whose valibot schema has the given type (e.g. "date"), for error messages.
 * @param schema - the root valibot schema.
 * @param type - the `type` of the schema or action the converter refused.
 * @returns a dotted path like `when` or `items[].at`, "(root)" for the root, or undefined.
 */
export function findUnconvertible(schema: GenericSchema, type: string): string | undefined {
  return findPath(schema, (node) => node.type === type);
}

/**
 * Finds the first node (schema or pipe action) of a valibot schema that `match` accepts, depth first.
 * @param schema - the root valibot schema.
 * @param match - the test, called once per node.
 * @returns its field as a dotted path like `when` or `items[].at`, "(root)" for the root, or undefined.
 */
export function findPath(schema: GenericSchema, match: (node: SchemaNode) => boolean): string | undefined {
  const seen = new Set<SchemaNode>();
  const visit = (node: SchemaNode | undefined, path: string): string | undefined => {
    if (!node || typeof node !== "object" || seen.has(node)) return undefined;
    seen.add(node);
    if (match(node)) return path || "(root)";
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

/**
 * Calls `fn` on every node (schema or pipe action) of a valibot schema once.
 * @param schema - the root valibot schema.
 * @param fn - called once per node.
 */
export function forEachNode(schema: GenericSchema, fn: (node: SchemaNode) => void): void {
  findPath(schema, (node) => (fn(node), false));
}
