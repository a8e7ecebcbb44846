/** @module How an options object is checked against its key table: unknown keys with a did-you-mean, each value against its valibot schema, messages naming the key and what is expected (the server options' tables: src/shared/server-keys.ts). */
import * as v from "valibot";
import { once } from "../runtime/once.ts";

/** The longest delay a timer can wait (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** One option key: its schema (undefined allowed: every key here is optional) and what is expected, in words; `keys` for a nested object. */
export interface OptionKey {
  readonly schema: v.GenericSchema;
  readonly expected: string;
  /** The keys of an object value, each checked (and named, e.g. `http.port`) on its own. */
  readonly keys?: Readonly<Record<string, OptionKey>>;
  /** For an object of named entries (e.g. `upstreams`): the keys of every entry (named e.g. `upstreams.github.args`). */
  readonly entries?: Readonly<Record<string, OptionKey>>;
  /**
   * For an object of named entries: a check of each entry as a whole, after its keys passed (e.g. an upstream
   * needs `command` or `url`, one of them).
   * @returns undefined, or what the entry needs, in words.
   */
  readonly entry?: (entry: Readonly<Record<string, unknown>>) => string | undefined;
}

/** The keys {@link opt} made: undefined passes them without building their schema. */
const OPTIONAL = new WeakSet<OptionKey>();

/**
 * An optional key whose schema (`v.optional` of `make()`) is built on its first check of a value. Building
 * every option's valibot schema when this module is evaluated cost ~1.4 M instructions of every start
 * (docs/benchmarks.md).
 * @param make - builds the value's schema.
 * @param expected - what is expected, in words (the messages say `"<key>" must be <expected>`).
 * @param more - the keys of an object value, or of each named entry and a check of each entry.
 * @returns the key's rule.
 */
export function opt(
  make: () => v.GenericSchema,
  expected: string,
  more: Pick<OptionKey, "keys" | "entries" | "entry"> = {},
): OptionKey {
  const schema = once(() => v.optional(make()));
  const key: OptionKey = {
    get schema() {
      return schema();
    },
    expected,
    ...more,
  };
  OPTIONAL.add(key);
  return key;
}

/**
 * The first problem of an object against a key table: an unknown key, a value its schema refuses, then
 * the keys of a nested object value (`keys`) or of each named entry (`entries`), named with a dotted path.
 * @param rec - the object.
 * @param table - its keys.
 * @param prefix - the path so far (e.g. `http.`).
 * @returns undefined, or the message: `"<path>" is not a known key (allowed: …)` or `"<path>" must be <expected>; got <value>`.
 */
export function keyProblem(
  rec: Record<string, unknown>,
  table: Readonly<Record<string, OptionKey>>,
  prefix = "",
): string | undefined {
  const unknown = unknownKey(rec, Object.keys(table), prefix);
  if (unknown) return unknown;
  for (const [key, k] of Object.entries(table)) {
    const { expected, keys, entries, entry: whole } = k;
    const bad = checkOption(k, rec[key]);
    if (bad) return `"${prefix}${key}${bad.sub}" must be ${expected}; got ${describeValue(bad.got)}`;
    const val = rec[key];
    if (typeof val !== "object" || val === null) continue;
    if (keys) {
      const p = keyProblem(val as Record<string, unknown>, keys, `${prefix}${key}.`);
      if (p) return p;
    }
    if (entries) {
      for (const [name, entry] of Object.entries(val as Record<string, unknown>)) {
        const p = keyProblem(entry as Record<string, unknown>, entries, `${prefix}${key}.${name}.`);
        if (p) return p;
        const needs = whole?.(entry as Record<string, unknown>);
        if (needs) return `"${prefix}${key}.${name}" needs ${needs}`;
      }
    }
  }
  return undefined;
}

/**
 * The first key of an options object that is not allowed, as a message: `"<prefix><key>" is not a known key (did
 * you mean "<nearest>"? allowed: a, b, c)`. Every options object an author writes is checked with it (each keeps
 * its list of keys beside its type: see "Option keys" in docs/security.md), so a key that does nothing (a typo,
 * or an option another version has) fails at definition and in the build's check run instead of being ignored.
 * @param obj - the object given.
 * @param allowed - its keys.
 * @param prefix - the path so far, e.g. `http.`.
 * @returns undefined, or the message.
 */
export function unknownKey(obj: object, allowed: readonly string[], prefix = ""): string | undefined {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const near = nearestKey(key, allowed);
    return `"${prefix}${key}" is not a known key (${near ? `did you mean "${near}"? ` : ""}allowed: ${allowed.join(", ")})`;
  }
  return undefined;
}

/**
 * The known key a mistyped one probably meant: the same but for case, or at most two letters added, dropped,
 * changed or swapped (one for a key of up to four letters): `comand` → `command`, `maxInflight` → `maxInFlight`.
 * @param key - the key given.
 * @param known - the keys allowed.
 * @returns the nearest known key, or undefined when none is that near.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const k = key.toLowerCase();
  let best: string | undefined;
  let bestD = key.length <= 4 ? 2 : 3;
  for (const c of known) {
    const d = distance(k, c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

/** Edit distance with adjacent swaps (optimal string alignment); also mcpbin's "did you mean" for commands. */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let x = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) x = Math.min(x, d[i - 2]![j - 2]! + 1);
      d[i]![j] = x;
    }
  }
  return d[a.length]![b.length]!;
}

/** A value as messages name it: `nothing`, `an array`, a short string in quotes, a number, … */
export function describeValue(x: unknown): string {
  if (x === undefined) return "nothing";
  if (Array.isArray(x)) return "an array";
  if (x === null) return "null";
  if (typeof x === "string") return JSON.stringify(x.length > 40 ? x.slice(0, 40) + "…" : x);
  if (typeof x === "object") return "an object";
  return typeof x === "number" ? String(x) : `a ${typeof x}`;
}

/**
 * Checks one value against its key.
 * @param key - the key's rule.
 * @param value - the value given.
 * @returns undefined when it passes, else the sub-path that failed (e.g. `[2]`, or "") and the value found there.
 */
export function checkOption(
  key: OptionKey,
  value: unknown,
): { readonly sub: string; readonly got: unknown } | undefined {
  if (value === undefined && OPTIONAL.has(key)) return undefined;
  const r = v.safeParse(key.schema, value);
  if (r.success) return undefined;
  const issue = r.issues[0];
  const sub = (issue.path ?? []).map((p) => (typeof p.key === "number" ? `[${p.key}]` : `.${String(p.key)}`)).join("");
  return { sub, got: issue.path?.length ? issue.input : value };
}
