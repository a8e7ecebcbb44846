/** @module Validating a tool's arguments and structured results: valibot, another Standard Schema, or Ajv for raw JSON Schemas. */
import * as v from "valibot";
import type { JsonSchema } from "../schema/json-schema.ts";
import { standardValidate, vendorOf } from "../schema/standard.ts";
import { contract } from "../runtime/contract.ts";
import { ajvLine, issueLine, type AjvError } from "../shared/issues.ts";
import { validationCopy } from "./json-schema.ts";
import { isSchemaFunction, isValibot } from "./schema-kind.ts";
import { inputOf } from "./schemas.ts";
import type { AnySchema, ParsedArguments, Tool } from "./types.ts";

/**
 * Validates arguments against the tool's input schema (valibot `input`, else the raw `inputSchema`
 * via Ajv against the normalized schema clients see, else "no arguments": any object is accepted).
 * @param t - the tool.
 * @param args - the `arguments` object from `tools/call`.
 * @returns the parsed value (defaults filled in, transforms applied) or the problems.
 */
export function parseArguments(t: Tool, args: unknown): ParsedArguments {
  const given = t.definition.input;
  const input = isSchemaFunction(given) ? inputOf(t) : (given as AnySchema | undefined);
  if (input) return validateWith(input, args, "input");
  if (t.definition.inputSchema) return validateJson(t.inputSchema, args);
  return { ok: true, value: args };
}

/**
 * Validates a value with a tool's schema: valibot's `safeParse`, else the Standard Schema's
 * `~standard.validate` (synchronously: a schema that answers with a Promise is reported as an issue).
 * @param schema - the tool's valibot or Standard Schema.
 * @param value - arguments or structured content.
 * @param what - which schema it is, for the message about an asynchronous one.
 * @returns the parsed value or the problems as `path: message` lines.
 */
export function validateWith(schema: AnySchema, value: unknown, what: "input" | "output"): ParsedArguments {
  if (isValibot(schema)) {
    let plan = plans.get(schema);
    if (plan === undefined) plans.set(schema, (plan = planOf(schema)));
    if (plan !== null) {
      const out = byPlan(plan, value);
      if (out !== undefined) return { ok: true, value: out };
    }
    const r = v.safeParse(schema, value);
    return r.success ? { ok: true, value: r.output } : { ok: false, issues: r.issues.map(issueLine) };
  }
  const r = standardValidate(schema, value);
  if (r instanceof Promise) {
    r.catch(() => {});
    return {
      ok: false,
      issues: [
        `(root): the ${what} schema (${vendorOf(schema)}) validates asynchronously (an async refinement); mcpbin validates synchronously: check that in run() instead`,
      ],
    };
  }
  return r;
}

/**
 * The check of a plain `v.object` whose entries are `v.string()`, `v.number()`, `v.boolean()` (or
 * `v.optional` of one, without a default), none with a pipe: what valibot's `safeParse` does for such a
 * schema, without its datasets (about 2.6 k instructions per call). Only its success path is taken: a
 * value it does not pass goes to `safeParse`, which words the issues.
 */
type Plan = readonly {
  readonly key: string;
  readonly type: "string" | "number" | "boolean";
  readonly optional: boolean;
}[];
const plans = new WeakMap<object, Plan | null>();
const PRIMITIVES = new Map<unknown, "string" | "number" | "boolean">([
  [v.string, "string"],
  [v.number, "number"],
  [v.boolean, "boolean"],
]);

/** The plan of a schema, or null when it is not of that shape (valibot parses it). */
function planOf(schema: v.GenericSchema): Plan | null {
  const s = schema as v.GenericSchema & {
    pipe?: unknown;
    entries?: Record<
      string,
      v.GenericSchema & { pipe?: unknown; wrapped?: v.GenericSchema & { pipe?: unknown }; default?: unknown }
    >;
  };
  if (s.reference !== v.object || "pipe" in s || s.entries === undefined) return null;
  const plan: { key: string; type: "string" | "number" | "boolean"; optional: boolean }[] = [];
  for (const key in s.entries) {
    let entry = s.entries[key]!;
    let optional = false;
    // A fallback (v.fallback) fills a missing or failing entry: valibot decides those.
    if ("fallback" in entry) return null;
    if (entry.reference === v.optional) {
      if (entry.default !== undefined || "pipe" in entry || entry.wrapped === undefined) return null;
      optional = true;
      entry = entry.wrapped;
    }
    const type = PRIMITIVES.get(entry.reference);
    if (type === undefined || "pipe" in entry || "fallback" in entry) return null;
    plan.push({ key, type, optional });
  }
  return plan;
}

/** The output valibot would give (a new object, the entries' keys in order), or undefined to let valibot decide. */
function byPlan(plan: Plan, input: unknown): Record<string, unknown> | undefined {
  if (!input || typeof input !== "object") return undefined;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < plan.length; i++) {
    const { key, type, optional } = plan[i]!;
    if (!(key in input)) {
      if (optional) continue;
      return undefined;
    }
    const x = (input as Record<string, unknown>)[key];
    if (typeof x !== type || x !== x) {
      if (optional && x === undefined) out[key] = undefined;
      else return undefined;
    } else out[key] = x;
  }
  return out;
}

type JsonValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
type AjvClass = new (options: object) => { compile(schema: object): JsonValidator };
const validators = new WeakMap<object, JsonValidator>();
let Ajv2020: AjvClass | undefined;
let ajvLoading: Promise<void> | undefined;

/**
 * True when the tool validates through Ajv: a raw `inputSchema`, or a raw `outputSchema` without a
 * valibot `output`. Such a tool can only be called once {@link loadAjv} has settled.
 */
export function usesJsonSchemaValidation(t: Tool): boolean {
  return t.definition.inputSchema !== undefined || t.definition.outputSchema !== undefined;
}

/** True once Ajv is loaded (or nothing needs it to be). */
export function ajvLoaded(): boolean {
  return Ajv2020 !== undefined;
}

/** Ajv's options for raw JSON Schemas, at run time and for the validators a build compiles ahead (src/build/validators.ts). */
export const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

/**
 * The key of a raw schema's validator compiled at build time: the JSON text of the schema Ajv validates
 * with (the normalized copy when the tool advertises its schema verbatim).
 * @param schema - a tool's `inputSchema`/`outputSchema`.
 */
export function validatorKey(schema: JsonSchema): string {
  return JSON.stringify(validationCopy.get(schema) ?? schema);
}

/**
 * The raw JSON Schemas a tool validates with Ajv: its `inputSchema` without a valibot `input`, its
 * `outputSchema` without a valibot `output`.
 */
export function rawValidationSchemas(t: Tool): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (t.definition.input === undefined && t.definition.inputSchema && t.inputSchema) out.push(t.inputSchema);
  if (t.definition.output === undefined && t.definition.outputSchema && t.outputSchema) out.push(t.outputSchema);
  return out;
}

/**
 * True when every raw schema of the tool can be validated now: Ajv is loaded, or the executable embeds a
 * validator compiled for it at build time (`contract().validators`, src/build/validators.ts), so a
 * raw-schema server never loads Ajv at run time.
 * @param t - a tool for which {@link usesJsonSchemaValidation} is true.
 */
export function jsonValidationReady(t: Tool): boolean {
  if (Ajv2020 !== undefined || ready.has(t)) return true;
  for (const s of rawValidationSchemas(t)) if (!validators.has(s) && !precompiled(s)) return false;
  ready.add(t);
  return true;
}

/** Tools whose every raw schema has a validator (compiled at build time): {@link jsonValidationReady} once per tool. */
const ready = new WeakSet<Tool>();

/** The validator the executable embeds for a raw schema (`contract().validators`), kept in {@link validators}; undefined without one. */
function precompiled(schema: JsonSchema): JsonValidator | undefined {
  const f = contract().validators?.get(validatorKey(schema)) as JsonValidator | undefined;
  if (f) validators.set(schema, f);
  return f;
}

/**
 * Loads Ajv, once. It is imported with `import()` so a compiled executable keeps it in a chunk of its
 * own, read only by servers whose tools use raw JSON Schemas (docs/benchmarks.md, start-up).
 * @returns resolves when {@link validateJson} can run; rejects if the module cannot be loaded.
 */
export function loadAjv(): Promise<void> {
  return (ajvLoading ??= import("ajv/dist/2020").then((m) => {
    Ajv2020 = ((m as { default: { default?: AjvClass } & AjvClass }).default.default ??
      (m as { default: AjvClass }).default) as AjvClass;
  }));
}

/**
 * Validates a value against a normalized raw JSON Schema (2020-12) with Ajv, compiled once per
 * schema; Ajv is loaded only when a tool uses a raw schema ({@link loadAjv}, which must have settled).
 * @param schema - a schema made by `normalizeRawSchema` (a tool's `inputSchema`/`outputSchema`).
 * @param value - the arguments or structured content.
 * @returns the value, or the problems as `path: message` lines.
 */
export function validateJson(schema: JsonSchema, value: unknown): ParsedArguments {
  let validate = validators.get(schema) ?? precompiled(schema);
  if (!validate) {
    if (!Ajv2020) throw new Error("internal: validateJson before loadAjv() settled");
    const ajv = new Ajv2020(AJV_OPTIONS);
    validate = ajv.compile(validationCopy.get(schema) ?? schema) as JsonValidator;
    validators.set(schema, validate);
  }
  if (validate(value)) return { ok: true, value };
  return {
    ok: false,
    issues: (validate.errors ?? []).map(ajvLine),
  };
}
