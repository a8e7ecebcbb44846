// A text, unit and date toolkit: a small but useful MCP server in one file (script style).
import * as v from "valibot";
import { serve, tool } from "mcpbin";

/** Counts words, characters and lines; returns structured content with a JSON text copy. */
export const textStats = tool({
  name: "text_stats",
  title: "Text statistics",
  description: "Count the words, characters (Unicode code points) and lines of a text.",
  input: v.object({ text: v.string() }),
  output: v.object({ words: v.number(), characters: v.number(), lines: v.number() }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ text }) => ({
    words: text.split(/\s+/u).filter(Boolean).length,
    characters: [...text].length,
    lines: text === "" ? 0 : text.split(/\r?\n/).length,
  }),
});

/** Turns a title into a URL slug. */
export const slugify = tool({
  name: "slugify",
  description: "Turn a title into a lowercase URL slug (accents removed, words joined by '-').",
  input: v.object({ text: v.string(), maxLength: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 80) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ text, maxLength }) =>
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, maxLength)
      .replace(/-+$/, ""),
});

const UNITS: Record<string, { kind: string; factor: number; offset?: number }> = {
  m: { kind: "length", factor: 1 },
  km: { kind: "length", factor: 1000 },
  cm: { kind: "length", factor: 0.01 },
  mi: { kind: "length", factor: 1609.344 },
  ft: { kind: "length", factor: 0.3048 },
  in: { kind: "length", factor: 0.0254 },
  kg: { kind: "mass", factor: 1 },
  g: { kind: "mass", factor: 0.001 },
  lb: { kind: "mass", factor: 0.45359237 },
  oz: { kind: "mass", factor: 0.028349523125 },
  C: { kind: "temperature", factor: 1, offset: 0 },
  F: { kind: "temperature", factor: 5 / 9, offset: -32 },
  K: { kind: "temperature", factor: 1, offset: -273.15 },
};
const unit = v.picklist(Object.keys(UNITS) as [string, ...string[]]);

/** Converts between units of length, mass or temperature. */
export const convertUnits = tool({
  name: "convert_units",
  title: "Convert units",
  description:
    "Convert a value between units of length (m, km, cm, mi, ft, in), mass (kg, g, lb, oz) or temperature (C, F, K).",
  input: v.object({ value: v.number(), from: unit, to: unit }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ value, from, to }) => {
    const a = UNITS[from]!;
    const b = UNITS[to]!;
    if (a.kind !== b.kind) throw new Error(`cannot convert ${a.kind} (${from}) to ${b.kind} (${to})`);
    const base = a.kind === "temperature" ? (value + a.offset!) * a.factor : value * a.factor;
    const out = b.kind === "temperature" ? base / b.factor - b.offset! : base / b.factor;
    return `${value} ${from} = ${Number(out.toPrecision(12))} ${to}`;
  },
});

/** Days between two calendar dates. */
export const daysBetween = tool({
  name: "days_between",
  title: "Days between dates",
  description: "Count the days from one ISO date (YYYY-MM-DD) to another; negative when the second is earlier.",
  input: v.object({ from: v.pipe(v.string(), v.isoDate()), to: v.pipe(v.string(), v.isoDate()) }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: ({ from, to }) => {
    const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
    const weekday = new Date(`${to}T00:00:00Z`).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
    return `${days} days from ${from} to ${to} (${to} is a ${weekday})`;
  },
});

/** Hashes a text with SHA-256 or SHA-1 (async: Web Crypto). */
export const hashText = tool({
  name: "hash_text",
  description: "Hash a UTF-8 text with SHA-256 (default) or SHA-1; returns lowercase hex.",
  input: v.object({ text: v.string(), algorithm: v.optional(v.picklist(["SHA-256", "SHA-1"]), "SHA-256") }),
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  run: async ({ text, algorithm }) => {
    const digest = await crypto.subtle.digest(algorithm, new TextEncoder().encode(text));
    return Buffer.from(digest).toString("hex");
  },
});

await serve({
  name: "toolkit",
  version: "1.0.0",
  title: "Text, unit and date toolkit",
  instructions: "Small deterministic helpers: text statistics, slugs, unit conversion, date arithmetic and hashing.",
  tools: [textStats, slugify, convertUnits, daysBetween, hashText],
});
