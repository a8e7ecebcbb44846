/** @module The operations of a document that become tools: the selection (curation) and their names, in document order. */
import { OpenApiError, type OpenApiDocument } from "./document.ts";
import { baseName, uniqueNames, validName } from "./names.ts";
import { operation } from "./operation.ts";
import type { Operation, Selection } from "./operation-types.ts";
import { deref } from "./schema.ts";

export type { ArgField, Operation, Selection } from "./operation-types.ts";

/** HTTP methods of a Path Item, in the order the OpenAPI specification lists them. */
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const globs = new Map<string, InstanceType<typeof Bun.Glob>>();
/**
 * A glob as every filter of mcpbin reads it (tool directories, upstream tools, operations): `Bun.Glob`,
 * case-sensitive, with `*`, `?`, `[a-z]` and `{a,b}` (`*` does not cross `/`; `**` does).
 */
function glob(pattern: string): InstanceType<typeof Bun.Glob> {
  let g = globs.get(pattern);
  if (!g) globs.set(pattern, (g = new Bun.Glob(pattern)));
  return g;
}

function matches(
  pattern: string,
  op: { operationId?: string; name: string; path: string; tags: readonly string[] },
): boolean {
  if (pattern.startsWith("tag:")) return op.tags.some((t) => glob(pattern.slice(4)).match(t));
  if (pattern.startsWith("path:")) return glob(pattern.slice(5)).match(op.path);
  const g = glob(pattern);
  return (op.operationId !== undefined && g.match(op.operationId)) || g.match(op.name);
}

/**
 * The operations of a 3.1 document that the selection keeps, with their tool models, in document order.
 * @param doc - a document from {@link loadDocument}.
 * @param sel - see {@link Selection}.
 * @returns the operations (schemas built lazily).
 * @throws OpenApiError on an invalid `x-mcp-name` or configured name, or a `$ref` that does not resolve.
 */
export function operationsOf(doc: OpenApiDocument, sel: Selection = {}): Operation[] {
  const unique = uniqueNames();
  const out: Operation[] = [];
  const paths = (doc.paths ?? {}) as Record<string, unknown>;
  const methods = sel.methods?.map((m) => m.toLowerCase());
  const maxDescription = sel.maxDescription ?? 1024;
  const rootMcp = doc["x-mcp"];
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem, `paths.${path}`) as Record<string, unknown>;
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (typeof op !== "object" || op === null) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const flag = op["x-mcp"] ?? item["x-mcp"] ?? rootMcp;
      if (flag === false) continue;
      if (methods && !methods.includes(method)) continue;
      if (sel.readOnly && method !== "get" && method !== "head") continue;
      const operationId = typeof op.operationId === "string" ? op.operationId : undefined;
      const tags = Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [];
      const configured = (operationId !== undefined ? sel.names?.[operationId] : undefined) ?? sel.names?.[where];
      const given = configured ?? (typeof op["x-mcp-name"] === "string" ? op["x-mcp-name"] : undefined);
      if (given !== undefined && !validName(given)) {
        throw new OpenApiError(
          `${where}: the tool name ${JSON.stringify(given)} (${configured !== undefined ? "names" : "x-mcp-name"}) is not accepted: use 1-64 characters from A-Z a-z 0-9 _ -`,
        );
      }
      const wanted = given ?? baseName(method, path, operationId);
      const probe = { operationId, name: wanted, path, tags };
      if (sel.include && sel.include.length > 0 && !sel.include.some((p) => matches(p, probe))) continue;
      if (sel.exclude?.some((p) => matches(p, probe))) continue;
      out.push(
        operation(doc, item, op, { method, path, where, operationId, tags, name: unique(wanted), maxDescription }),
      );
    }
  }
  return out;
}
