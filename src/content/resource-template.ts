/** @module resourceTemplate(): definitions of readable content addressed by an RFC 6570 template (MCP server/resources), their checks, and reading a matched URI. */
import { RESOURCE_TEMPLATE_BRAND } from "../runtime/contract.ts";
import * as v from "valibot";
import {
  checkDisplay,
  ContentDefinitionError,
  directContext,
  emitContentChange,
  type ContentContext,
} from "./common.ts";
import {
  escapesPath,
  expandUriTemplate,
  matchUriTemplate,
  parseUriTemplate,
  UriTemplateError,
  type UriTemplate,
} from "./uri-template.ts";
import { issueLine } from "../shared/issues.ts";
import { unknownKey } from "../shared/option-keys.ts";
import {
  RESOURCE_TEMPLATE_KEYS,
  ResourceReadError,
  type AnyObjectSchema,
  type ResourceContents,
  type ResourceTemplate,
  type ResourceTemplateDefinition,
} from "./resource-types.ts";
import { toContents } from "./resource-contents.ts";

const TEMPLATE = RESOURCE_TEMPLATE_BRAND;

/**
 * Defines a resource template (MCP server/resources, RFC 6570 levels 1-3).
 * @param def - see {@link ResourceTemplateDefinition}.
 * @returns a {@link ResourceTemplate}: servable by `serve({ resources })` and readable directly.
 * @throws ContentDefinitionError on a bad template, a `variables` schema that is not an object or
 *   names variables the template lacks, a completer for an unknown variable, or a missing `read`.
 */
export function resourceTemplate<S extends AnyObjectSchema | undefined = undefined>(
  def: ResourceTemplateDefinition<S>,
): ResourceTemplate<S> {
  const text = (def as { uriTemplate?: unknown })?.uriTemplate;
  let template: UriTemplate;
  try {
    template = parseUriTemplate(text as string);
  } catch (e) {
    throw new ContentDefinitionError(`resourceTemplate: ${e instanceof UriTemplateError ? e.message : String(e)}`);
  }
  const what = `resource template ${JSON.stringify(template.text)}`;
  const unknown = unknownKey(def, RESOURCE_TEMPLATE_KEYS);
  if (unknown) throw new ContentDefinitionError(`${what}: ${unknown}`);
  checkDisplay(what, def);
  if (typeof def.read !== "function")
    throw new ContentDefinitionError(`${what}: "read" must be a function ({ ...variables }, ctx) => content`);
  if (def.list !== undefined && typeof def.list !== "function")
    throw new ContentDefinitionError(`${what}: "list" must be a function returning [{ uri, name }]`);
  const schema = def.variables as (v.GenericSchema & { entries?: Record<string, unknown> }) | undefined;
  if (schema !== undefined) {
    if (typeof schema !== "object" || schema === null || !schema.entries)
      throw new ContentDefinitionError(
        `${what}: "variables" must be a valibot object schema, e.g. v.object({ path: v.string() })`,
      );
    for (const k of Object.keys(schema.entries)) {
      if (!template.variables.includes(k))
        throw new ContentDefinitionError(
          `${what}: "variables" names "${k}", which the template does not have (it has ${template.variables.join(", ") || "none"})`,
        );
    }
  }
  for (const k of Object.keys(def.complete ?? {})) {
    if (!template.variables.includes(k))
      throw new ContentDefinitionError(
        `${what}: "complete" names "${k}", which the template does not have (it has ${template.variables.join(", ") || "none"})`,
      );
    if (typeof def.complete![k] !== "function")
      throw new ContentDefinitionError(`${what}: complete.${k} must be a function (value, ctx) => string[]`);
  }
  const t: ResourceTemplate<S> = {
    [TEMPLATE]: true,
    uriTemplate: template.text,
    name: def.name,
    definition: def,
    template,
    match: (uri) => matchUriTemplate(template, uri),
    expand: (vars) => expandUriTemplate(template, vars),
    async read(uriOrVars, ctx) {
      const uri = typeof uriOrVars === "string" ? uriOrVars : expandUriTemplate(template, uriOrVars);
      const raw = matchUriTemplate(template, uri);
      if (!raw) throw new ResourceReadError(`${uri} does not match the template ${template.text}`, uri);
      return readTemplate(t as ResourceTemplate, uri, raw, ctx);
    },
    changed(uri) {
      emitContentChange(uri === undefined ? { kind: "list", source: t } : { kind: "resource", uri, source: t });
    },
  };
  return t;
}

/**
 * Reads a URI a template matched: refuses a `..` segment in any variable and variables that fail the
 * template's `variables` schema (ResourceReadError, -32602 on the wire), then runs `read`.
 * @param raw - the matched variables.
 */
export async function readTemplate(
  t: ResourceTemplate,
  uri: string,
  raw: Record<string, string>,
  ctx?: Partial<ContentContext>,
): Promise<ResourceContents[]> {
  for (const [k, value] of Object.entries(raw)) {
    if (escapesPath(value))
      throw new ResourceReadError(
        `Invalid params: the variable "${k}" of ${uri} contains a ".." segment, which is refused`,
        uri,
      );
  }
  let vars: unknown = raw;
  const schema = t.definition.variables;
  if (schema) {
    const r = v.safeParse(schema, raw);
    if (!r.success)
      throw new ResourceReadError(
        `Invalid params: ${uri} does not fit the template ${t.uriTemplate}: ${r.issues.map(issueLine).join("; ")}`,
        uri,
      );
    vars = r.output;
  }
  const value = await t.definition.read(vars as never, { ...directContext(ctx), uri });
  return toContents(`resource template ${JSON.stringify(t.uriTemplate)}`, value, uri, t.definition.mimeType);
}

/** True for values made by {@link resourceTemplate}. */
export function isResourceTemplate(x: unknown): x is ResourceTemplate {
  return typeof x === "object" && x !== null && TEMPLATE in x;
}
