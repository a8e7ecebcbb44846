/** @module The config file's schema (valibot) and its check, with messages naming file, key and expectation. */
import * as v from "valibot";
import { ConfigError, type McpbinConfig } from "./define.ts";

const text = v.pipe(v.string(), v.nonEmpty());
const ms = v.pipe(v.number(), v.finite(), v.minValue(0));
const count = v.pipe(v.number(), v.integer(), v.minValue(1));
const patterns = v.array(text);

/**
 * Every key a config file may hold: its schema and what is expected, in words. Add a key here and
 * to `ServerOptions` together.
 */
export const CONFIG_KEYS: Record<string, { schema: v.GenericSchema; expected: string }> = {
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
  json: {
    schema: v.optional(
      v.strictObject({
        nonFinite: v.optional(v.picklist(["null", "string", "error"])),
        bigint: v.optional(v.picklist(["string", "number", "error"])),
      }),
    ),
    expected: 'an object { nonFinite?: "null" | "string" | "error", bigint?: "string" | "number" | "error" }',
  },
  timeoutMs: { schema: v.optional(ms), expected: "a number of milliseconds ≥ 0 (0 = no limit)" },
  maxInFlight: { schema: v.optional(count), expected: "an integer ≥ 1" },
  maxResultBytes: { schema: v.optional(count), expected: "an integer number of bytes ≥ 1" },
  maxLineBytes: { schema: v.optional(count), expected: "an integer number of bytes ≥ 1" },
  shutdownGraceMs: { schema: v.optional(ms), expected: "a number of milliseconds ≥ 0" },
  http: {
    schema: v.optional(
      v.union([
        v.boolean(),
        v.strictObject({
          port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535))),
          host: v.optional(text),
          path: v.optional(v.pipe(v.string(), v.startsWith("/"))),
          token: v.optional(text),
          allowedOrigins: v.optional(patterns),
          allowedHosts: v.optional(patterns),
          maxBodyBytes: v.optional(count),
          requestTimeoutMs: v.optional(ms),
          sessionIdleMs: v.optional(ms),
          maxSessions: v.optional(count),
          accessLog: v.optional(v.boolean()),
        }),
      ]),
    ),
    expected:
      "true, or an object { port?, host?, path?, token?, allowedOrigins?, allowedHosts?, maxBodyBytes?, requestTimeoutMs?, sessionIdleMs?, maxSessions?, accessLog? } (Streamable HTTP; see the README's HTTP section)",
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
  for (const key of Object.keys(rec)) {
    if (!(key in CONFIG_KEYS)) throw new ConfigError(`${file}: unknown key "${key}"; expected one of ${Object.keys(CONFIG_KEYS).join(", ")}`);
  }
  for (const [key, { schema, expected }] of Object.entries(CONFIG_KEYS)) {
    const r = v.safeParse(schema, rec[key]);
    if (r.success) continue;
    const issue = r.issues[0];
    const sub = (issue.path ?? []).map((p) => (typeof p.key === "number" ? `[${p.key}]` : `.${String(p.key)}`)).join("");
    const got = issue.path?.length ? issue.input : rec[key];
    throw new ConfigError(`${file}: "${key}${sub}" must be ${expected}; got ${describe(got)}`);
  }
  if (Array.isArray(rec.include) && rec.include.length === 0) {
    throw new ConfigError(`${file}: "include" is empty, so no tool would be served; remove it or name the tools to serve`);
  }
  return value as McpbinConfig;
}
