/** @module What of a valibot pipe JSON Schema says exactly: the converter hooks that translate an action exactly or leave it out, never advertising a schema stricter than the validator. */
/** A JSON Schema object (as src/schema/json-schema.ts's `JsonSchema`; declared here so the two modules do not import each other). */
type JsonSchema = Record<string, unknown>;

/** An action of a valibot pipe, as the converter hands it over. */
interface Action {
  readonly kind: string;
  readonly type: string;
  readonly requirement?: unknown;
}

/** Why an action is not in the advertised schema (the server still checks it). */
export interface LeftOut {
  /** The action object, to find its field by identity. */
  readonly action: object;
  /** The action as the author wrote it, e.g. `v.regex(/a/i)`. */
  readonly what: string;
  /** Why JSON Schema does not carry it, when there is more to say than "it cannot". */
  readonly why?: string;
}

/**
 * Actions whose converted `format` rejects values valibot accepts (Ajv with ajv-formats, as the SDK
 * clients validate): `date` checks the calendar, `date-time` and `time` need seconds and an offset,
 * `email` (RFC) needs a dot in the domain. Their regex is exact as a `pattern` instead.
 */
const FORMAT_AS_PATTERN = new Set(["iso_date", "iso_date_time", "iso_timestamp", "iso_time", "rfc_email"]);

/** Converted formats that reject values valibot accepts and have no regex to say it instead. */
const FORMAT_LEFT_OUT: Record<string, string> = {
  // valibot asks the WHATWG URL parser, which takes spaces, IDNs and more that RFC 3986 "uri" refuses.
  url: 'format "uri" refuses URLs the WHATWG URL parser of v.url() accepts',
};

/** Transformations that leave the value as it is (types only). */
const IDENTITY = new Set(["brand", "flavor", "readonly"]);

/** Keys a metadata action sets, kept when the validations around them are dropped. */
const METADATA_KEYS = ["title", "description", "examples"];

/** RegExp flags under which a `pattern` means the same as the valibot regex (Ajv compiles patterns with "u"). */
const EXACT_FLAGS = /^[du]*$/;

/**
 * The converter hooks of one conversion (@valibot/to-json-schema `overrideSchema`/`overrideAction`), in
 * `input` or `output` mode. The converter calls them in pipe order, so the schema as it was before an
 * action is the result of the hook called just before. Per action:
 * - a regex the converter copied without its flags (`i`, `m`, `s`, `g`, `y`, `v`) is left out;
 * - a second regex (or `startsWith`, `includes`, … ) in one pipe goes to `allOf`, exactly;
 * - a format stricter than valibot's check becomes valibot's own regex as `pattern`, or is left out;
 * - a string's `minLength` k (valibot counts UTF-16 units, JSON Schema code points) is advertised as
 *   ⌈k/2⌉ when k > 1: a string of k units has at least that many code points;
 * - input mode: a validation after a transformation (`v.trim()`, `v.toLowerCase()`, …) checks the
 *   transformed value and is left out; output mode: one before a transformation is dropped likewise;
 * - a validation the converter cannot express (`v.check`, `v.custom`, …) is left out, as before.
 * @param mode - which side of the schema is described.
 * @param leftOut - called for each validation left out of the advertised schema.
 * @param base - the caller's own hooks, run first.
 * @returns the two hooks to pass to `toJsonSchema`.
 */
export function exactHooks(
  mode: "input" | "output",
  leftOut: (l: LeftOut) => void,
  base: {
    overrideSchema: (ctx: SchemaCtx) => JsonSchema | undefined;
    overrideAction: (ctx: ActionCtx) => JsonSchema | undefined;
  },
): {
  overrideSchema: (ctx: SchemaCtx) => JsonSchema | undefined;
  overrideAction: (ctx: ActionCtx) => JsonSchema | undefined;
} {
  /** The schema after the previous hook: the state an action started from. */
  let before: JsonSchema = {};
  /** The schema after the pipe's base schema (where output mode goes back to at a transformation). */
  let pipeBase: JsonSchema = {};
  /** Validations seen since the pipe's base schema (output mode drops them at a transformation). */
  let validations: Action[] = [];
  let transformed = false;
  const remember = (s: JsonSchema): JsonSchema => ((before = { ...s }), s);
  /** The caller's verdict as it is (undefined lets the converter report its error), remembering the state. */
  const passOn = (o: JsonSchema | undefined, current: JsonSchema): JsonSchema | undefined => (
    remember(o ?? current),
    o
  );
  return {
    overrideSchema(ctx) {
      if (ctx.valibotSchema.type === "custom") leftOut({ action: ctx.valibotSchema, what: "v.custom()" });
      const out = base.overrideSchema(ctx) ?? ctx.jsonSchema;
      pipeBase = { ...out };
      validations = [];
      transformed = false;
      remember(out);
      return out === ctx.jsonSchema ? undefined : out;
    },
    overrideAction(ctx) {
      const a = ctx.valibotAction as unknown as Action;
      const prev = before;
      if (a.kind === "transformation" && !IDENTITY.has(a.type)) {
        transformed = true;
        if (mode === "output" && validations.length > 0) {
          // The output is the transformed value: checks made before the transformation do not describe it.
          for (const v of validations)
            leftOut({ action: v, what: describe(v), why: `it checks the value before v.${camel(a.type)}()` });
          validations = [];
          const keep: JsonSchema = { ...pipeBase };
          for (const k of METADATA_KEYS) if (ctx.jsonSchema[k] !== undefined) keep[k] = ctx.jsonSchema[k];
          return passOn(base.overrideAction({ ...ctx, jsonSchema: keep }) ?? (ctx.errors ? undefined : keep), keep);
        }
        return passOn(base.overrideAction(ctx), ctx.jsonSchema);
      }
      if (a.kind !== "validation") return passOn(base.overrideAction(ctx), ctx.jsonSchema);
      if (mode === "input" && transformed) {
        leftOut({
          action: a,
          what: describe(a),
          why: "it checks what an earlier transformation returned, not what the client sends",
        });
        return remember({ ...prev });
      }
      validations.push(a);
      const regex = a.requirement instanceof RegExp ? a.requirement : undefined;
      const combined = ctx.errors?.some((e) => e.includes("in combination with another regex action")) === true;
      if (regex && FORMAT_AS_PATTERN.has(a.type) && EXACT_FLAGS.test(regex.flags))
        return remember(withPattern({ ...prev }, regex.source));
      if (FORMAT_LEFT_OUT[a.type] !== undefined) {
        leftOut({ action: a, what: describe(a), why: FORMAT_LEFT_OUT[a.type] });
        return remember({ ...prev });
      }
      // The converter wrote the regex's source as `pattern` (or would have, but for another one there).
      const patterned = regex !== undefined && (combined || ctx.jsonSchema.pattern !== prev.pattern);
      if (patterned && !EXACT_FLAGS.test(regex.flags)) {
        leftOut({ action: a, what: describe(a), why: `RegExp flags "${regex.flags}" have no JSON Schema form` });
        return remember({ ...prev });
      }
      const pattern = patternOf(a);
      if (combined && pattern !== undefined) return remember(withPattern({ ...prev }, pattern));
      if (patterned) return remember(ctx.jsonSchema); // only the "u" flag, which Ajv's patterns have too
      if (ctx.errors) {
        leftOut({ action: a, what: describe(a) });
        return remember({ ...prev });
      }
      const out = base.overrideAction(ctx) ?? ctx.jsonSchema;
      if (
        (a.type === "min_length" || a.type === "length") &&
        out.type === "string" &&
        typeof out.minLength === "number" &&
        out.minLength > 1
      ) {
        const k = a.requirement as number;
        if (out.minLength === k) out.minLength = Math.ceil(k / 2);
      }
      return remember(out);
    },
  };
}

/** The converter's hook contexts, as far as these hooks read them. */
export interface SchemaCtx {
  readonly valibotSchema: { readonly type: string };
  readonly jsonSchema: JsonSchema;
  readonly errors?: readonly string[];
}
export interface ActionCtx {
  readonly valibotAction: { readonly kind: string; readonly type: string };
  readonly jsonSchema: JsonSchema;
  readonly errors?: readonly string[];
}

/** Adds a pattern: as `pattern`, or in `allOf` when there is one already (one schema holds one `pattern`). */
function withPattern(s: JsonSchema, pattern: string): JsonSchema {
  delete s.format;
  if (s.pattern === undefined) s.pattern = pattern;
  else if (s.pattern !== pattern) s.allOf = [...((s.allOf as JsonSchema[] | undefined) ?? []), { pattern }];
  return s;
}

const ESCAPE = /[.*+?^${}()|[\]\\]/g;

/** The pattern a regex-like action converts to (as the converter writes it), or undefined. */
function patternOf(a: Action): string | undefined {
  if (a.requirement instanceof RegExp) return a.requirement.source;
  if (typeof a.requirement !== "string") return undefined;
  const e = a.requirement.replace(ESCAPE, "\\$&");
  if (a.type === "starts_with") return `^${e}`;
  if (a.type === "ends_with") return `${e}$`;
  if (a.type === "includes") return e;
  return undefined;
}

/** `v.regex(/a/i)`, `v.check()`, `v.url()`: how the author wrote the action. */
function describe(a: Action): string {
  if (a.requirement instanceof RegExp) return `v.${camel(a.type)}(${String(a.requirement)})`;
  return `v.${camel(a.type)}()`;
}

function camel(type: string): string {
  return type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
