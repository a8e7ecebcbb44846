/** @module The arguments of an OpenAPI operation: its parameters and request body as tool input properties, each with where its value is sent. */
import type { OpenApiDocument } from "./document.ts";
import { pickMedia } from "./media.ts";
import type { ArgField, FieldLocation } from "./operation-types.ts";
import { deref } from "./schema.ts";

/** One argument before its final name: where it goes, its schema, and whether it is required. */
export interface Candidate {
  readonly key: string;
  readonly in: FieldLocation;
  readonly name: string;
  readonly style: string;
  readonly explode: boolean;
  readonly schema: unknown;
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated?: boolean;
}

/** An operation's arguments: the candidates (with schemas), their fields (unique names), and the body's media type. */
export interface Arguments {
  readonly cands: readonly Candidate[];
  readonly fields: readonly ArgField[];
  readonly bodyType?: string;
}

/** A property name every model API accepts (`^[A-Za-z0-9_.-]{1,64}$`). */
function argName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 64);
  return s === "" ? "_" : s;
}

/**
 * The arguments of an operation: the path item's parameters overridden by the operation's, then an object
 * body's properties (read-only ones left out) or one `body` argument; a name two arguments share gets
 * its location as a suffix (`id__query`).
 * @param where - how messages name the operation, e.g. "GET /pets".
 * @throws OpenApiError on a `$ref` that does not resolve.
 */
export function argumentsOf(
  doc: OpenApiDocument,
  item: Record<string, unknown>,
  op: Record<string, unknown>,
  where: string,
): Arguments {
  // Parameters: the operation's override the path item's with the same name and location.
  const params = new Map<string, Record<string, unknown>>();
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const [i, p] of list.entries()) {
      const param = deref(doc, p, `${where} parameters[${i}]`);
      if (typeof param.name !== "string" || typeof param.in !== "string") continue;
      params.set(`${param.in}\u0000${param.name}`, param);
    }
  }
  const body = op.requestBody === undefined ? undefined : deref(doc, op.requestBody, `${where} requestBody`);
  const bodyContent = body?.content as Record<string, { schema?: unknown }> | undefined;
  const bodyType = body ? pickMedia(bodyContent) : undefined;
  const bodySchema = bodyType ? bodyContent![bodyType]?.schema : undefined;
  const bodyRequired = body?.required === true;
  // Flatten an object body's properties; anything else is one `body` argument.
  const resolvedBody =
    bodySchema === undefined ? undefined : deref<Record<string, unknown>>(doc, bodySchema, `${where} requestBody`);
  const flatBody =
    resolvedBody !== undefined &&
    typeof resolvedBody === "object" &&
    (resolvedBody.type === "object" || resolvedBody.type === undefined) &&
    typeof resolvedBody.properties === "object" &&
    resolvedBody.properties !== null &&
    !resolvedBody.allOf &&
    !resolvedBody.anyOf &&
    !resolvedBody.oneOf;

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

  return { cands, fields, bodyType };
}

function hiddenInput(doc: OpenApiDocument, s: unknown): boolean {
  try {
    const r = deref<Record<string, unknown>>(doc, s, "");
    return typeof r === "object" && r !== null && r.readOnly === true;
  } catch {
    return false;
  }
}
