/** @module One OpenAPI operation as a tool model: its description, security, servers, and input and output JSON Schemas built on first use. */
import type { JsonSchema } from "../schema/json-schema.ts";
import type { OpenApiDocument } from "./document.ts";
import { isJsonType } from "./media.ts";
import { argumentsOf } from "./operation-fields.ts";
import type { Operation } from "./operation-types.ts";
import { deref, SchemaConverter } from "./schema.ts";

/** Where an operation sits and what it is called. */
export interface Site {
  method: string;
  path: string;
  where: string;
  operationId?: string;
  tags: string[];
  name: string;
  maxDescription: number;
}

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The tool model of one operation.
 * @param item - its path item (parameters and servers it inherits).
 * @throws OpenApiError on a `$ref` that does not resolve.
 */
export function operation(
  doc: OpenApiDocument,
  item: Record<string, unknown>,
  op: Record<string, unknown>,
  s: Site,
): Operation {
  const { cands, fields, bodyType } = argumentsOf(doc, item, op, s.where);
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
