/** @module Payload JSON: turns tool return values into strict JSON values under the configured rules. */
import { checkOption, describeValue, unknownKey } from "./option-keys.ts";
import { JSON_KEYS } from "./server-keys.ts";

/** How values JSON cannot carry are encoded; set once with `serve({ json })` or the config file. */
export interface JsonOptions {
  /** NaN and ±Infinity: `"null"` (default), `"string"` ("NaN", "Infinity", "-Infinity") or `"error"`. */
  readonly nonFinite?: "null" | "string" | "error";
  /** BigInt: `"string"` decimal (default), `"number"` when safe (else a string), or `"error"`. */
  readonly bigint?: "string" | "number" | "error";
}

/** Payload JSON options that are not understood; the message names the option and its accepted values. */
export class JsonOptionsError extends Error {
  readonly code = "JSON_OPTIONS";
  constructor(message: string) {
    super(message);
    this.name = "JsonOptionsError";
  }
}

/** A value that cannot be encoded under the options (cycle, BigInt or NaN in "error" mode, a function…). */
export class JsonEncodeError extends Error {
  /**
   * @param path - where the value sits, e.g. `$.items[2].count`.
   * @param reason - what is wrong with it.
   */
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`cannot encode the result as JSON at ${path}: ${reason}`);
    this.name = "JsonEncodeError";
  }
}

const DEFAULTS: Required<JsonOptions> = Object.freeze({ nonFinite: "null", bigint: "string" });

/**
 * Checks payload JSON options and fills in the defaults, once at start (`serve({ json })`, config file).
 * @param options - the options as given; undefined for the defaults.
 * @returns every option set (`nonFinite: "null"`, `bigint: "string"` unless given).
 * @throws JsonOptionsError naming the option and its accepted values when one is unknown or out of range.
 */
export function resolveJsonOptions(options: JsonOptions | undefined): Required<JsonOptions> {
  if (options === undefined) return DEFAULTS;
  if (typeof options !== "object" || options === null)
    throw new JsonOptionsError('json: must be an object like { nonFinite: "null", bigint: "string" }');
  const unknown = unknownKey(options, Object.keys(JSON_KEYS), "json.");
  if (unknown) throw new JsonOptionsError(unknown);
  for (const [k, key] of Object.entries(JSON_KEYS)) {
    const value = (options as Record<string, unknown>)[k];
    if (checkOption(key, value))
      throw new JsonOptionsError(`json.${k} must be ${key.expected}; got ${describeValue(value)}`);
  }
  const { nonFinite = DEFAULTS.nonFinite, bigint = DEFAULTS.bigint } = options;
  return nonFinite === DEFAULTS.nonFinite && bigint === DEFAULTS.bigint
    ? DEFAULTS
    : Object.freeze({ nonFinite, bigint });
}

/**
 * Converts a value into a strict JSON value: `undefined` fields omitted (array holes become null),
 * Date → ISO string, Map → object, Set and typed arrays → arrays, `toJSON()` honoured,
 * non-finite numbers and BigInt per `options`.
 * @param value - any value a tool returned.
 * @param options - the server's payload JSON options.
 * @returns a value `JSON.stringify` encodes exactly, with no NaN/Infinity tokens.
 * @throws JsonEncodeError on a cycle, a function or symbol value, or a value refused by "error" mode.
 */
export function toJsonValue(value: unknown, options: JsonOptions = DEFAULTS): unknown {
  const o =
    options.nonFinite !== undefined && options.bigint !== undefined
      ? (options as Required<JsonOptions>)
      : { ...DEFAULTS, ...options };
  return encode(value, o, [], []);
}

/** `$.a.b[2]` for the keys walked so far; built only when an error needs it. */
function pathOf(keys: readonly (string | number)[]): string {
  let path = "$";
  for (const k of keys) path += typeof k === "number" ? `[${k}]` : `.${k}`;
  return path;
}

/** Encodes one value; `keys` and `stack` are the path and the objects being encoded above it. */
function encode(value: unknown, o: Required<JsonOptions>, keys: (string | number)[], stack: object[]): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value)) return value;
      if (o.nonFinite === "null") return null;
      if (o.nonFinite === "string") return String(value);
      throw new JsonEncodeError(pathOf(keys), `${value} is not a finite number`);
    case "bigint":
      if (o.bigint === "string") return value.toString();
      if (o.bigint === "number") {
        return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
          ? Number(value)
          : value.toString();
      }
      throw new JsonEncodeError(pathOf(keys), 'BigInt values are refused (json.bigint is "error")');
    case "undefined":
      return undefined;
    case "function":
    case "symbol":
      throw new JsonEncodeError(pathOf(keys), `a ${typeof value} has no JSON form`);
  }
  if (value === null) return null;
  const obj = value as object;
  if (stack.includes(obj)) throw new JsonEncodeError(pathOf(keys), "the value contains a cycle");
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
  stack.push(obj);
  try {
    if (Array.isArray(obj)) {
      const out = new Array(obj.length);
      for (let i = 0; i < obj.length; i++) {
        keys.push(i);
        const v = encode(obj[i], o, keys, stack);
        keys.pop();
        out[i] = v === undefined ? null : v;
      }
      return out;
    }
    if (ArrayBuffer.isView(obj) && !(obj instanceof DataView)) {
      return encode(Array.from(obj as unknown as ArrayLike<number | bigint>), o, keys, stack);
    }
    if (obj instanceof Set) return encode([...obj], o, keys, stack);
    const out: Record<string, unknown> = {};
    if (obj instanceof Map) {
      for (const [k, v] of obj) {
        keys.push(String(k));
        const e = encode(v, o, keys, stack);
        keys.pop();
        if (e !== undefined) out[String(k)] = e;
      }
      return out;
    }
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return encode(toJSON.call(obj), o, keys, stack);
    for (const k in obj) {
      if (!Object.hasOwn(obj, k)) continue;
      keys.push(k);
      const e = encode((obj as Record<string, unknown>)[k], o, keys, stack);
      keys.pop();
      if (e !== undefined) out[k] = e;
    }
    return out;
  } finally {
    stack.pop();
  }
}

/**
 * The text of an ordinary return value (MCP server/tools TextContent): a string as is; an array of
 * strings joined with "\n"; undefined or null as "{}"; an empty array as "[]"; anything else as
 * compact JSON, except that a value whose JSON form is a string (a Date, a BigInt) is that string
 * unquoted: text is never JSON-encoded twice.
 * @param value - what `run` returned.
 * @param options - the server's payload JSON options.
 * @returns the text of the one text content block.
 * @throws JsonEncodeError as {@link toJsonValue}.
 */
export function textOf(value: unknown, options?: JsonOptions): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "{}";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((x) => typeof x === "string")) return value.join("\n");
  }
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  const encoded = toJsonValue(value, options);
  return typeof encoded === "string" ? encoded : (JSON.stringify(encoded) ?? "{}");
}
