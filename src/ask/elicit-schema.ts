/** @module valibot object schema → elicitation `requestedSchema` per protocol version, and the parse of the client's answer with the same schema. */
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { issueLine } from "../shared/issues.ts";
import { ElicitSchemaError } from "./errors.ts";
import type { ElicitForm, ElicitObjectSchema } from "./types.ts";

type Json = Record<string, unknown>;

const FORMATS = new Set(["email", "uri", "date", "date-time"]);
const KINDS =
  "string (with format email/uri/date/date-time, minLength, maxLength), number or integer (minimum, maximum), boolean, picklist, union of titled literals, or an array of those (multi-select)";

/** One field in a version-neutral form; rendered per version by {@link render}. */
type Field =
  | { kind: "string"; meta: Json; minLength?: number; maxLength?: number; format?: string; default?: string }
  | { kind: "number"; meta: Json; type: "number" | "integer"; minimum?: number; maximum?: number; default?: number }
  | { kind: "boolean"; meta: Json; default?: boolean }
  | { kind: "enum"; meta: Json; options: Option[]; titled: boolean; legacy?: boolean; default?: string }
  | {
      kind: "multi";
      meta: Json;
      options: Option[];
      titled: boolean;
      minItems?: number;
      maxItems?: number;
      default?: string[];
    };

interface Option {
  value: string;
  title?: string;
}

const forms = new WeakMap<object, ElicitForm>();

/**
 * Builds a form from a valibot object schema once (MCP 2025-11-25 client/elicitation "Requested Schema").
 * The kinds allowed: `v.string()` with `v.email()`/`v.url()`/`v.isoDate()`/`v.isoTimestamp()`,
 * `v.minLength`/`v.maxLength`; `v.number()` (`v.integer()` for integer) with `v.minValue`/`v.maxValue`;
 * `v.boolean()`; `v.picklist([...])` (single select); `v.union([v.pipe(v.literal("a"), v.title("A")), …])`
 * (single select with titles); `v.array(<either enum>)` with `v.minLength`/`v.maxLength` (multi-select,
 * 2025-11-25+); `v.optional(x, default)` for defaults (2025-11-25+; 2025-06-18 carries only boolean
 * defaults, the others are applied when parsing); `v.title`/`v.description` on each field.
 * Checks that only validation can do (`v.check`, `v.regex`) are left out of `requestedSchema` and enforced on the answer.
 * @param schema - a valibot object schema.
 * @returns the form (the same object for the same schema).
 * @throws ElicitSchemaError naming the field and what to change, for any other shape.
 */
export function elicitation<S extends ElicitObjectSchema>(schema: S): ElicitForm<S> {
  const known = forms.get(schema);
  if (known) return known as unknown as ElicitForm<S>;
  const fields = convert(schema);
  const rendered = new Map<string, Json>();
  const form: ElicitForm<S> = {
    schema,
    requestedSchema(version) {
      const modern = version >= "2025-11-25";
      let out = rendered.get(modern ? "new" : "old");
      if (!out) {
        out = render(fields, modern);
        rendered.set(modern ? "new" : "old", out);
      }
      return out;
    },
    parse(content) {
      const r = v.safeParse(schema, content);
      return r.success ? { ok: true, value: r.output } : { ok: false, issues: r.issues.map(issueLine) };
    },
  };
  forms.set(schema, form as unknown as ElicitForm);
  return form;
}

/** True for a form made by {@link elicitation} (as opposed to a valibot schema). */
export function isElicitForm(x: unknown): x is ElicitForm {
  return (
    typeof x === "object" &&
    x !== null &&
    typeof (x as ElicitForm).requestedSchema === "function" &&
    typeof (x as ElicitForm).parse === "function"
  );
}

function convert(schema: ElicitObjectSchema): { properties: [string, Field][]; required: string[] } {
  const kind = (schema as { type?: unknown })?.type;
  if (kind !== "object" && kind !== "strict_object" && kind !== "loose_object") {
    throw new ElicitSchemaError(
      `elicitation needs a valibot object schema (v.object({...})), not ${typeof kind === "string" ? `v.${kind}` : typeof schema}`,
    );
  }
  let json: Json;
  try {
    // An action JSON Schema cannot say (v.check, v.regex's pattern is kept and refused below) stays a parse-time check.
    json = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "ignore" }) as Json;
  } catch (e) {
    throw new ElicitSchemaError(`elicitation schema cannot be converted: ${(e as Error).message}`);
  }
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  return { properties: Object.entries(props).map(([name, p]) => [name, field(name, p)]), required };
}

function field(name: string, p: Json): Field {
  const fail = (what: string): never => {
    throw new ElicitSchemaError(`elicitation field "${name}": ${what}; allowed: ${KINDS}`);
  };
  const meta: Json = {};
  if (typeof p.title === "string") meta.title = p.title;
  if (typeof p.description === "string") meta.description = p.description;
  const only = (allowed: string[]) => {
    // `pattern` (v.regex) is validation only: left out of the requested schema, enforced on the answer.
    for (const k of Object.keys(p))
      if (!allowed.includes(k) && k !== "title" && k !== "description" && k !== "pattern")
        fail(`"${k}" cannot be sent in a requested schema`);
  };
  const opts = options(p);
  if (opts) {
    only(["type", "enum", "anyOf", "oneOf", "default", "enumNames"]);
    const f: Field = { kind: "enum", meta, options: opts.options, titled: opts.titled };
    if (p.enumNames !== undefined) {
      // The legacy titled enum (v.metadata({ enumNames })): sent as written in every version.
      const names = p.enumNames;
      if (
        !Array.isArray(names) ||
        names.length !== opts.options.length ||
        !names.every((n) => typeof n === "string") ||
        opts.titled
      ) {
        fail("enumNames must be a list of strings, one per option of a picklist");
      }
      f.options = opts.options.map((o, i) => ({ value: o.value, title: (names as string[])[i] }));
      f.legacy = true;
    }
    if (p.default !== undefined) {
      if (typeof p.default !== "string") fail("the default of an enum must be one of its strings");
      f.default = p.default as string;
    }
    return f;
  }
  switch (p.type) {
    case "string": {
      only(["type", "minLength", "maxLength", "format", "default"]);
      if (p.format !== undefined && !FORMATS.has(p.format as string))
        fail(`format "${p.format}" is not one of email, uri, date, date-time`);
      const f: Field = { kind: "string", meta };
      if (typeof p.minLength === "number") f.minLength = p.minLength;
      if (typeof p.maxLength === "number") f.maxLength = p.maxLength;
      if (typeof p.format === "string") f.format = p.format;
      if (typeof p.default === "string") f.default = p.default;
      return f;
    }
    case "number":
    case "integer": {
      only(["type", "minimum", "maximum", "default"]);
      const f: Field = { kind: "number", meta, type: p.type };
      if (typeof p.minimum === "number") f.minimum = p.minimum;
      if (typeof p.maximum === "number") f.maximum = p.maximum;
      if (typeof p.default === "number") f.default = p.default;
      return f;
    }
    case "boolean": {
      only(["type", "default"]);
      const f: Field = { kind: "boolean", meta };
      if (typeof p.default === "boolean") f.default = p.default;
      return f;
    }
    case "array": {
      only(["type", "items", "minItems", "maxItems", "default"]);
      const items = options((p.items ?? {}) as Json);
      if (!items) fail("an array must be of a picklist or a union of titled string literals (a multi-select)");
      const f: Field = { kind: "multi", meta, options: items!.options, titled: items!.titled };
      if (typeof p.minItems === "number") f.minItems = p.minItems;
      if (typeof p.maxItems === "number") f.maxItems = p.maxItems;
      if (Array.isArray(p.default)) f.default = p.default as string[];
      return f;
    }
    default:
      return fail(
        p.type === undefined
          ? "this kind of schema cannot be described to the client"
          : `type ${JSON.stringify(p.type)} is not allowed`,
      );
  }
}

/** The options of a string enum: `enum` of strings, or `anyOf`/`oneOf` of `{const, title?}` strings; undefined for anything else. */
function options(p: Json): { options: Option[]; titled: boolean } | undefined {
  if (Array.isArray(p.enum)) {
    if (!p.enum.every((x) => typeof x === "string")) return undefined;
    return { options: (p.enum as string[]).map((value) => ({ value })), titled: false };
  }
  const list = (p.anyOf ?? p.oneOf) as Json[] | undefined;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: Option[] = [];
  for (const o of list) {
    if (typeof o !== "object" || o === null || typeof o.const !== "string") return undefined;
    for (const k of Object.keys(o))
      if (k !== "const" && k !== "title" && k !== "type" && k !== "description") return undefined;
    out.push(typeof o.title === "string" ? { value: o.const, title: o.title } : { value: o.const });
  }
  return { options: out, titled: out.some((o) => o.title !== undefined) };
}

/** One version's requested schema: `modern` is 2025-11-25 and later (titled and multi-select enums, defaults everywhere). */
function render(fields: { properties: [string, Field][]; required: string[] }, modern: boolean): Json {
  const properties: Json = {};
  for (const [name, f] of fields.properties) {
    const out: Json = { ...f.meta };
    switch (f.kind) {
      case "string":
        out.type = "string";
        if (f.minLength !== undefined) out.minLength = f.minLength;
        if (f.maxLength !== undefined) out.maxLength = f.maxLength;
        if (f.format !== undefined) out.format = f.format;
        if (modern && f.default !== undefined) out.default = f.default;
        break;
      case "number":
        out.type = f.type;
        if (f.minimum !== undefined) out.minimum = f.minimum;
        if (f.maximum !== undefined) out.maximum = f.maximum;
        if (modern && f.default !== undefined) out.default = f.default;
        break;
      case "boolean":
        out.type = "boolean";
        if (f.default !== undefined) out.default = f.default;
        break;
      case "enum":
        out.type = "string";
        if (f.titled && modern && !f.legacy)
          out.oneOf = f.options.map((o) => ({ const: o.value, title: o.title ?? o.value }));
        else {
          out.enum = f.options.map((o) => o.value);
          // 2025-06-18 names titled options with the (since deprecated) enumNames.
          if (f.titled || f.legacy) out.enumNames = f.options.map((o) => o.title ?? o.value);
        }
        if (modern && f.default !== undefined) out.default = f.default;
        break;
      case "multi":
        if (!modern)
          throw new ElicitSchemaError(
            `elicitation field "${name}": a multi-select (array) needs protocol version 2025-11-25 or later; this client speaks an older one`,
          );
        out.type = "array";
        out.items = f.titled
          ? { anyOf: f.options.map((o) => ({ const: o.value, title: o.title ?? o.value })) }
          : { type: "string", enum: f.options.map((o) => o.value) };
        if (f.minItems !== undefined) out.minItems = f.minItems;
        if (f.maxItems !== undefined) out.maxItems = f.maxItems;
        if (f.default !== undefined) out.default = f.default;
        break;
    }
    properties[name] = out;
  }
  const schema: Json = { type: "object", properties };
  if (fields.required.length > 0) schema.required = fields.required;
  return schema;
}
