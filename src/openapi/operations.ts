/** @module The operations of a document as tool models: selection (curation), names, argument fields, input and output schemas. */
import type { JsonSchema } from "../schema/json-schema.ts";
import { OpenApiError, type OpenApiDocument } from "./document.ts";
import { baseName, uniqueNames, validName } from "./names.ts";
import { deref, SchemaConverter } from "./schema.ts";

/** HTTP methods of a Path Item, in the order the OpenAPI specification lists them. */
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Where an argument goes in the request. */
export type FieldLocation = "path" | "query" | "header" | "cookie" | "body" | "bodyProperty";

/** One property of a tool's input and where its value is sent. */
export interface ArgField {
  /** The property name in the tool's input (the parameter's name, suffixed `__query` etc. on a collision). */
  readonly arg: string;
  readonly in: FieldLocation;
  /** The parameter or body property name on the wire. */
  readonly name: string;
  /** Parameter `style` (defaults by location: form for query/cookie, simple for path/header). */
  readonly style: string;
  readonly explode: boolean;
}

/** An operation ready to become a tool. */
export interface Operation {
  /** The tool name: valid, unique, the same on every run. */
  readonly name: string;
  readonly operationId?: string;
  /** Upper case, e.g. "GET". */
  readonly method: string;
  /** The path template, e.g. "/pets/{petId}". */
  readonly path: string;
  readonly summary?: string;
  /** The tool description: summary and description. */
  readonly description: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly fields: readonly ArgField[];
  /** The request body's media type, when the operation takes a body. */
  readonly bodyType?: string;
  /** Security requirements in force (alternatives; `{}` among them makes credentials optional). */
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  /** Servers of the path item or operation, when they override the document's. */
  readonly servers?: readonly { url: string; variables?: Record<string, { default?: string }> }[];
  /** The input JSON Schema (built on first call, then kept). */
  inputSchema(): JsonSchema;
  /** The JSON Schema of the first 2xx JSON response (an object root: a non-object is wrapped as `result`), if any. */
  outputSchema(): JsonSchema | undefined;
}

/** Which operations become tools. */
export interface Selection {
  /**
   * Keep only operations matching one of these (default all): a glob on the operationId or the tool name
   * (`pets*`, `*_issue`, `{get,list}_*`), `tag:NAME` (a glob on the tags), or `path:GLOB` (on the path
   * template, `/pets/*`). Globs are Bun.Glob's, case-sensitive, as every filter of mcpbin.
   */
  readonly include?: readonly string[];
  /** Leave out operations matching one of these (same patterns as `include`). */
  readonly exclude?: readonly string[];
  /** Keep only these HTTP methods (any case). */
  readonly methods?: readonly string[];
  /** Keep only GET and HEAD operations. Default false. */
  readonly readOnly?: boolean;
  /** Tool names by operationId (or `METHOD /path`), overriding the derived name and `x-mcp-name`. */
  readonly names?: Readonly<Record<string, string>>;
  /** Longest tool description, characters; longer ones are cut with "…". Default 1024. */
  readonly maxDescription?: number;
}

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

/** A property name every model API accepts (`^[A-Za-z0-9_.-]{1,64}$`). */
function argName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 64);
  return s === "" ? "_" : s;
}

const MEDIA_ORDER = [
  (t: string) => t === "application/json" || /^application\/[\w.+-]*\+json$/.test(t),
  (t: string) => t === "application/x-www-form-urlencoded",
  (t: string) => t === "multipart/form-data",
  (t: string) => t === "text/plain",
  (t: string) => t.startsWith("text/"),
];

/** The media type of a content map the tool uses: JSON first, then forms, then text, then the first listed. */
export function pickMedia(content: Record<string, unknown> | undefined): string | undefined {
  const types = content ? Object.keys(content) : [];
  for (const ok of MEDIA_ORDER) {
    const t = types.find((x) => ok(x.toLowerCase().split(";")[0]!.trim()));
    if (t) return t;
  }
  return types[0];
}

/** True when a content type is JSON (`application/json`, `…+json`). */
export function isJsonType(t: string): boolean {
  const base = t.toLowerCase().split(";")[0]!.trim();
  return base === "application/json" || base.endsWith("+json") || base === "*/*";
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
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

interface Site {
  method: string;
  path: string;
  where: string;
  operationId?: string;
  tags: string[];
  name: string;
  maxDescription: number;
}

function operation(
  doc: OpenApiDocument,
  item: Record<string, unknown>,
  op: Record<string, unknown>,
  s: Site,
): Operation {
  // Parameters: the operation's override the path item's with the same name and location.
  const params = new Map<string, Record<string, unknown>>();
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const [i, p] of list.entries()) {
      const param = deref(doc, p, `${s.where} parameters[${i}]`);
      if (typeof param.name !== "string" || typeof param.in !== "string") continue;
      params.set(`${param.in}\u0000${param.name}`, param);
    }
  }
  const body = op.requestBody === undefined ? undefined : deref(doc, op.requestBody, `${s.where} requestBody`);
  const bodyContent = body?.content as Record<string, { schema?: unknown }> | undefined;
  const bodyType = body ? pickMedia(bodyContent) : undefined;
  const bodySchema = bodyType ? bodyContent![bodyType]?.schema : undefined;
  const bodyRequired = body?.required === true;
  // Flatten an object body's properties; anything else is one `body` argument.
  const resolvedBody =
    bodySchema === undefined ? undefined : deref<Record<string, unknown>>(doc, bodySchema, `${s.where} requestBody`);
  const flatBody =
    resolvedBody !== undefined &&
    typeof resolvedBody === "object" &&
    (resolvedBody.type === "object" || resolvedBody.type === undefined) &&
    typeof resolvedBody.properties === "object" &&
    resolvedBody.properties !== null &&
    !resolvedBody.allOf &&
    !resolvedBody.anyOf &&
    !resolvedBody.oneOf;

  type Candidate = {
    key: string;
    in: FieldLocation;
    name: string;
    style: string;
    explode: boolean;
    schema: unknown;
    required: boolean;
    description?: string;
    deprecated?: boolean;
  };
  const cands: Candidate[] = [];
  for (const p of params.values()) {
    const loc = p.in as FieldLocation;
    if (!["path", "query", "header", "cookie"].includes(loc)) continue;
    // Headers the HTTP layer owns are not arguments (OpenAPI: Accept, Content-Type and Authorization are ignored as parameters).
    if (loc === "header" && /^(accept|content-type|authorization)$/i.test(p.name as string)) continue;
    const style = typeof p.style === "string" ? p.style : loc === "query" || loc === "cookie" ? "form" : "simple";
    const explode = typeof p.explode === "boolean" ? p.explode : style === "form";
    const content = p.content as Record<string, { schema?: unknown }> | undefined;
    const schema = p.schema ?? (content ? content[pickMedia(content) ?? ""]?.schema : undefined) ?? {};
    cands.push({
      key: argName(p.name as string),
      in: loc,
      name: p.name as string,
      style,
      explode,
      schema,
      required: loc === "path" || p.required === true,
      description: p.description as string | undefined,
      deprecated: p.deprecated === true,
    });
  }
  if (bodyType !== undefined && flatBody) {
    const req = new Set(Array.isArray(resolvedBody!.required) ? (resolvedBody!.required as string[]) : []);
    for (const [p, ps] of Object.entries(resolvedBody!.properties as Record<string, unknown>)) {
      if (hiddenInput(doc, ps)) continue;
      cands.push({
        key: argName(p),
        in: "bodyProperty",
        name: p,
        style: "form",
        explode: true,
        schema: ps,
        required: bodyRequired && req.has(p),
      });
    }
  } else if (bodyType !== undefined) {
    cands.push({
      key: "body",
      in: "body",
      name: "body",
      style: "form",
      explode: true,
      schema: bodySchema ?? {},
      required: bodyRequired,
      description: body?.description as string | undefined,
    });
  }
  const count = new Map<string, number>();
  for (const c of cands) count.set(c.key, (count.get(c.key) ?? 0) + 1);
  const suffix: Record<FieldLocation, string> = {
    path: "path",
    query: "query",
    header: "header",
    cookie: "cookie",
    body: "body",
    bodyProperty: "body",
  };
  const fields: ArgField[] = cands.map((c) => ({
    arg: count.get(c.key)! > 1 ? `${c.key.slice(0, 56)}__${suffix[c.in]}` : c.key,
    in: c.in,
    name: c.name,
    style: c.style,
    explode: c.explode,
  }));

  const summary = typeof op.summary === "string" ? op.summary.trim() : undefined;
  const long = typeof op.description === "string" ? op.description.trim() : undefined;
  const text =
    [summary, long && long !== summary ? long : undefined].filter(Boolean).join("\n\n") ||
    `${s.method.toUpperCase()} ${s.path}`;
  const deprecated = op.deprecated === true;
  const security = (
    Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : []
  ) as Record<string, string[]>[];
  const servers = (
    Array.isArray(op.servers) && op.servers.length > 0
      ? op.servers
      : Array.isArray(item.servers) && item.servers.length > 0
        ? item.servers
        : undefined
  ) as Operation["servers"];

  let input: JsonSchema | undefined;
  let output: JsonSchema | null | undefined;
  return {
    name: s.name,
    operationId: s.operationId,
    method: s.method.toUpperCase(),
    path: s.path,
    summary,
    description: cut(deprecated ? `${text}\n\n(Deprecated.)` : text, s.maxDescription),
    tags: s.tags,
    deprecated,
    fields,
    bodyType,
    security,
    servers,
    inputSchema() {
      if (input) return input;
      const conv = new SchemaConverter(doc, "input", s.where);
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      cands.forEach((c, i) => {
        let schema = conv.convert(c.schema);
        if (typeof schema === "object") {
          const extra: JsonSchema = {};
          if (c.description && schema.description === undefined) extra.description = c.description;
          if (c.deprecated) extra.deprecated = true;
          if (c.in === "header" || c.in === "cookie")
            extra.description =
              `${(extra.description ?? schema.description ?? "").toString()}${(extra.description ?? schema.description) ? " " : ""}(${c.in} ${c.name})`.trim();
          if (Object.keys(extra).length > 0) schema = { ...schema, ...extra };
        }
        properties[fields[i]!.arg] = schema;
        if (c.required) required.push(fields[i]!.arg);
      });
      const root: JsonSchema = { type: "object", properties, additionalProperties: false };
      if (required.length > 0) root.required = required;
      return (input = conv.finish(root));
    },
    outputSchema() {
      if (output !== undefined) return output ?? undefined;
      output = null;
      const responses = (op.responses ?? {}) as Record<string, unknown>;
      const code = Object.keys(responses)
        .filter((c) => /^2(\d\d|XX)$/i.test(c))
        .sort()[0];
      if (code === undefined) return undefined;
      const res = deref(doc, responses[code], `${s.where} responses.${code}`);
      const content = res.content as Record<string, { schema?: unknown }> | undefined;
      const t = content ? Object.keys(content).find(isJsonType) : undefined;
      const schema = t ? content![t]?.schema : undefined;
      if (schema === undefined) return undefined;
      const conv = new SchemaConverter(doc, "output", s.where);
      const converted = conv.convert(schema);
      const resolved = deref<Record<string, unknown>>(doc, schema, s.where);
      const isObject = typeof resolved === "object" && resolved.type === "object";
      const root: JsonSchema =
        isObject && typeof converted === "object"
          ? converted
          : { type: "object", properties: { result: converted }, required: ["result"] };
      return (output = conv.finish(root));
    },
  };
}

function hiddenInput(doc: OpenApiDocument, s: unknown): boolean {
  try {
    const r = deref<Record<string, unknown>>(doc, s, "");
    return typeof r === "object" && r !== null && r.readOnly === true;
  } catch {
    return false;
  }
}
