/** @module Standard Schema v1 (zod 4, arktype, …) for tools: recognising one, validating through `~standard.validate`, and its library's own JSON Schema converter. */
import type { JsonSchema } from "./json-schema.ts";

/**
 * The Standard Schema v1 interface (https://standardschema.dev, MIT; copied as the spec asks, so
 * nothing is installed for it). valibot, zod 4, arktype and others implement it.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    /** The library, e.g. "zod", "arktype", "valibot". */
    readonly vendor: string;
    validate(value: unknown): StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** What `~standard.validate` returns. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
      }>;
    };

/** The output type a Standard Schema parses to. */
export type StandardOutput<S> = S extends {
  readonly "~standard": { readonly types?: { readonly output: infer O } | undefined };
}
  ? O
  : unknown;

/** Options of the Standard JSON Schema interface (`~standard.jsonSchema.input|output`). */
interface JsonSchemaConverter {
  input(o: { target: string }): Record<string, unknown>;
  output(o: { target: string }): Record<string, unknown>;
}

/**
 * True for a Standard Schema v1 value (an object or, as arktype's types are, a function).
 * @param x - anything.
 */
export function isStandardSchema(x: unknown): x is StandardSchemaV1 {
  if ((typeof x !== "object" && typeof x !== "function") || x === null) return false;
  const s = (x as { "~standard"?: { version?: unknown; validate?: unknown } })["~standard"];
  return typeof s === "object" && s !== null && s.version === 1 && typeof s.validate === "function";
}

/** The vendor a Standard Schema names ("zod", "arktype", …). */
export function vendorOf(s: StandardSchemaV1): string {
  return String(s["~standard"].vendor);
}

/**
 * Converts a Standard Schema to JSON Schema 2020-12 with its library's own converter: arktype's
 * `toJsonSchema` (of `.in` or `.out`), zod's `toJSONSchema` (`io` input or output), else the Standard
 * JSON Schema interface (`~standard.jsonSchema.input|output`). The libraries' own methods come first
 * because they refuse what JSON Schema cannot say (a Date) where arktype's standard interface quietly
 * writes `{}`. The result is not normalized yet.
 * @param s - the schema.
 * @param mode - "input" (what a client sends) or "output" (what parsing yields).
 * @returns the converted schema, or undefined when the library has no converter.
 * @throws what the converter throws for a part JSON Schema cannot express (e.g. a Date).
 */
export function standardToJsonSchema(s: StandardSchemaV1, mode: "input" | "output"): JsonSchema | undefined {
  type Ark = { toJsonSchema?: () => JsonSchema; in?: Ark; out?: Ark };
  const m = s as unknown as Ark & { toJSONSchema?: (o?: object) => JsonSchema };
  if (typeof m.toJsonSchema === "function") {
    const side = mode === "input" ? m.in : m.out;
    return typeof side?.toJsonSchema === "function" ? side.toJsonSchema() : m.toJsonSchema();
  }
  if (typeof m.toJSONSchema === "function") return m.toJSONSchema({ target: "draft-2020-12", io: mode });
  const conv = (s["~standard"] as { jsonSchema?: JsonSchemaConverter }).jsonSchema;
  if (conv && typeof conv[mode] === "function") return conv[mode]({ target: "draft-2020-12" });
  return undefined;
}

/** Parsed value, or the problems as `path: message` lines (the shape of `parseArguments`). */
export type StandardParsed = { ok: true; value: unknown } | { ok: false; issues: string[] };

/**
 * Validates through `~standard.validate`.
 * @param s - the schema.
 * @param value - the arguments or structured content.
 * @returns the parsed value or the issues as `path: message` lines; a Promise when the schema validates
 *   asynchronously (e.g. a zod async refinement).
 */
export function standardValidate(s: StandardSchemaV1, value: unknown): StandardParsed | Promise<StandardParsed> {
  const r = s["~standard"].validate(value);
  return r instanceof Promise ? r.then(toParsed) : toParsed(r);
}

function toParsed(r: StandardResult<unknown>): StandardParsed {
  if (!r.issues) return { ok: true, value: r.value };
  return {
    ok: false,
    issues: r.issues.map((i) => {
      const path = i.path?.map((p) => String(typeof p === "object" && p !== null ? p.key : p)).join(".") || "(root)";
      return `${path}: ${i.message}`;
    }),
  };
}

/**
 * A short fingerprint of a Standard Schema given directly, for the build-time record's key (a stale
 * record then misses instead of lying): the vendor, arktype's `expression`, or zod's top-level fields
 * with their types.
 */
export function standardFingerprint(s: StandardSchemaV1): string {
  const x = s as unknown as { expression?: unknown; type?: unknown; shape?: Record<string, { type?: unknown }> };
  let out = `${vendorOf(s)}:`;
  if (typeof x.expression === "string") return out + x.expression;
  if (typeof x.type === "string") out += x.type;
  if (x.shape && typeof x.shape === "object") for (const k in x.shape) out += `,${k}:${String(x.shape[k]?.type)}`;
  return out;
}
