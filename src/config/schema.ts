/** @module The config file's schema (valibot) and its check, with messages naming file, key and expectation. */
import * as v from "valibot";
import { ConfigError, type McpbinConfig } from "./define.ts";

const text = v.pipe(v.string(), v.nonEmpty());
const ms = v.pipe(v.number(), v.finite(), v.minValue(0));
const count = v.pipe(v.number(), v.integer(), v.minValue(1));
const patterns = v.array(text);

/** One key of a config object: its schema and what is expected, in words; `keys` for a nested object. */
export interface ConfigKey {
  readonly schema: v.GenericSchema;
  readonly expected: string;
  /** The keys of an object value, each checked (and named, e.g. `http.port`) on its own. */
  readonly keys?: Readonly<Record<string, ConfigKey>>;
}

const oneOf = (...xs: string[]) => `one of ${xs.map((x) => JSON.stringify(x)).join(", ")}`;
const intMs = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The keys of the config file's `json` object (payload JSON, src/json.ts). */
export const JSON_KEYS: Record<string, ConfigKey> = {
  nonFinite: { schema: v.optional(v.picklist(["null", "string", "error"])), expected: oneOf("null", "string", "error") },
  bigint: { schema: v.optional(v.picklist(["string", "number", "error"])), expected: oneOf("string", "number", "error") },
};

/** The keys of the config file's `http` object (src/transport/http-options.ts, checked the same way there). */
export const HTTP_KEYS: Record<string, ConfigKey> = {
  port: { schema: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))), expected: "an integer 0-65535 (0 picks a free port)" },
  host: { schema: v.optional(text), expected: 'a non-empty string (the interface to bind, e.g. "127.0.0.1" or "0.0.0.0")' },
  path: {
    schema: v.optional(v.pipe(v.string(), v.startsWith("/"), v.notValue("/healthz"))),
    expected: 'a path starting with "/" other than "/healthz" (e.g. "/mcp")',
  },
  token: { schema: v.optional(text), expected: "a non-empty string (prefer the MCPBIN_HTTP_TOKEN environment variable)" },
  allowedOrigins: { schema: v.optional(patterns), expected: 'an array of origins (e.g. ["https://app.example.com"]; "*" for any)' },
  allowedHosts: { schema: v.optional(patterns), expected: 'an array of host names (e.g. ["mcp.example.com"])' },
  maxBodyBytes: { schema: v.optional(count), expected: "an integer number of bytes ≥ 1" },
  requestTimeoutMs: { schema: v.optional(intMs), expected: "an integer number of milliseconds ≥ 0 (0 = no limit)" },
  sessionIdleMs: { schema: v.optional(intMs), expected: "an integer number of milliseconds ≥ 0" },
  maxSessions: { schema: v.optional(count), expected: "an integer ≥ 1" },
  accessLog: { schema: v.optional(v.boolean()), expected: "true or false" },
};

const plainObject = v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x));
const anObject = v.optional(plainObject);
const shape = (keys: Record<string, ConfigKey>) => `{ ${Object.keys(keys).map((k) => `${k}?`).join(", ")} }`;

/**
 * Every key a config file may hold: its schema and what is expected, in words. Add a key here and
 * to `ServerOptions` together.
 */
export const CONFIG_KEYS: Record<string, ConfigKey> = {
  name: { schema: text, expected: "a non-empty string (the server name sent as serverInfo.name)" },
  version: { schema: text, expected: 'a non-empty string such as "1.0.0"' },
  title: { schema: v.optional(v.string()), expected: "a string (display name)" },
  instructions: { schema: v.optional(v.string()), expected: "a string (guidance for the model)" },
  tools: {
    schema: v.pipe(v.array(text), v.minLength(1)),
    expected: 'a non-empty array of paths to tool modules or directories, relative to the config file (e.g. ["tools"])',
  },
  include: { schema: v.optional(patterns), expected: 'an array of tool-name glob patterns (e.g. ["admin_*"])' },
  exclude: { schema: v.optional(patterns), expected: 'an array of tool-name glob patterns (e.g. ["debug_*"])' },
  json: { schema: anObject, expected: `an object ${shape(JSON_KEYS)} (payload JSON; see the README)`, keys: JSON_KEYS },
  timeoutMs: { schema: v.optional(ms), expected: "a number of milliseconds ≥ 0 (0 = no limit)" },
  maxInFlight: { schema: v.optional(count), expected: "an integer ≥ 1" },
  pageSize: { schema: v.optional(count), expected: "an integer ≥ 1 (items per page of the list methods)" },
  maxResultBytes: { schema: v.optional(count), expected: "an integer number of bytes ≥ 1" },
  maxLineBytes: { schema: v.optional(count), expected: "an integer number of bytes ≥ 1" },
  shutdownGraceMs: { schema: v.optional(ms), expected: "a number of milliseconds ≥ 0" },
  http: {
    schema: v.optional(v.union([v.boolean(), plainObject])),
    expected: `true, or an object ${shape(HTTP_KEYS)} (Streamable HTTP; see the README's HTTP section)`,
    keys: HTTP_KEYS,
  },
};

function describe(x: unknown): string {
  if (x === undefined) return "nothing";
  if (Array.isArray(x)) return "an array";
  if (x === null) return "null";
  if (typeof x === "string") return JSON.stringify(x.length > 40 ? x.slice(0, 40) + "…" : x);
  if (typeof x === "object") return "an object";
  return typeof x === "number" ? String(x) : `a ${typeof x}`;
}

/**
 * Checks a config file's default export.
 * @param value - what the file exports (normally the result of `defineConfig`).
 * @param file - the file as it should be named in messages.
 * @returns the config, unchanged.
 * @throws ConfigError naming the file, the key and what is expected; or, for an unknown key, the keys there are.
 */
export function checkConfig(value: unknown, file: string): McpbinConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError(`${file}: the default export must be a config object: export default defineConfig({ name, version, tools: ["tools"] })`);
  }
  const rec = value as Record<string, unknown>;
  checkKeys(rec, CONFIG_KEYS, "", file);
  if (Array.isArray(rec.include) && rec.include.length === 0) {
    throw new ConfigError(`${file}: "include" is empty, so no tool would be served; remove it or name the tools to serve`);
  }
  return value as McpbinConfig;
}

/**
 * Checks an object against a key table: unknown keys first, then each key's value, then the keys of
 * a nested object value (named with a dotted path, e.g. `http.port`).
 * @throws ConfigError naming the file, the key and what is expected.
 */
function checkKeys(rec: Record<string, unknown>, table: Record<string, ConfigKey>, prefix: string, file: string): void {
  for (const key of Object.keys(rec)) {
    if (!Object.hasOwn(table, key)) throw new ConfigError(`${file}: "${prefix}${key}" is not a known key (allowed: ${Object.keys(table).join(", ")})`);
  }
  for (const [key, { schema, expected, keys }] of Object.entries(table)) {
    const r = v.safeParse(schema, rec[key]);
    if (!r.success) {
      const issue = r.issues[0];
      const sub = (issue.path ?? []).map((p) => (typeof p.key === "number" ? `[${p.key}]` : `.${String(p.key)}`)).join("");
      const got = issue.path?.length ? issue.input : rec[key];
      throw new ConfigError(`${file}: "${prefix}${key}${sub}" must be ${expected}; got ${describe(got)}`);
    }
    const val = rec[key];
    if (keys && typeof val === "object" && val !== null) checkKeys(val as Record<string, unknown>, keys, `${prefix}${key}.`, file);
  }
}
