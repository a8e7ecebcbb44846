/** @module The config file's schema (valibot) and its check, with messages naming file, key and expectation. */
import * as v from "valibot";
import { ConfigError, type McpbinConfig } from "./define.ts";
import { keyProblem, type OptionKey } from "../shared/option-keys.ts";
import { HTTP_KEYS, JSON_KEYS, KNOB_KEYS, SESSIONS_KEYS, UPSTREAMS_KEYS } from "../shared/server-keys.ts";

const text = v.pipe(v.string(), v.nonEmpty());
const patterns = v.array(text);

/** One key of a config object (src/shared/option-keys.ts; the server options' keys: src/shared/server-keys.ts). */
export type ConfigKey = OptionKey;
export { HTTP_KEYS, JSON_KEYS };

const plainObject = v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x));
const anObject = v.optional(plainObject);
const shape = (keys: Record<string, ConfigKey>) =>
  `{ ${Object.keys(keys)
    .map((k) => `${k}?`)
    .join(", ")} }`;

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
    schema: v.array(text),
    expected: 'a non-empty array of paths to tool modules or directories, relative to the config file (e.g. ["tools"])',
  },
  include: { schema: v.optional(patterns), expected: 'an array of tool-name glob patterns (e.g. ["admin_*"])' },
  skills: {
    schema: v.optional(v.array(text)),
    expected:
      'an array of folders holding skills (folders with a SKILL.md), relative to the config file (e.g. ["skills"])',
  },
  exclude: { schema: v.optional(patterns), expected: 'an array of tool-name glob patterns (e.g. ["debug_*"])' },
  json: {
    schema: anObject,
    expected: `an object ${shape(JSON_KEYS)} (payload JSON; see docs/tools.md)`,
    keys: JSON_KEYS,
  },
  ...KNOB_KEYS,
  http: {
    schema: v.optional(v.union([v.boolean(), plainObject])),
    expected: `true, or an object ${shape(HTTP_KEYS)} (Streamable HTTP; see docs/http.md)`,
    keys: HTTP_KEYS,
  },
  ...UPSTREAMS_KEYS,
  tasks: {
    schema: v.optional(plainObject),
    expected:
      "an object { store?, dir?, url?, ttlMs?, maxTtlMs?, pollIntervalMs?, prefix?, maxRunning? } (where tasks are kept; see docs/tasks.md)",
  },
  ...SESSIONS_KEYS,
};

/**
 * Checks a config file's default export.
 * @param value - what the file exports (normally the result of `defineConfig`).
 * @param file - the file as it should be named in messages.
 * @returns the config, unchanged.
 * @throws ConfigError naming the file, the key and what is expected; or, for an unknown key, the keys there are.
 */
export function checkConfig(value: unknown, file: string): McpbinConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError(
      `${file}: the default export must be a config object: export default defineConfig({ name, version, tools: ["tools"] })`,
    );
  }
  const rec = value as Record<string, unknown>;
  checkKeys(rec, CONFIG_KEYS, "", file);
  // A project may be only other servers fronted as one: "tools" may then be empty.
  if (Array.isArray(rec.tools) && rec.tools.length === 0 && rec.upstreams === undefined && rec.sessions === undefined) {
    throw new ConfigError(
      `${file}: "tools" must be ${CONFIG_KEYS.tools!.expected}; got an array (empty; it may be empty only beside "upstreams" or "sessions")`,
    );
  }
  if (Array.isArray(rec.include) && rec.include.length === 0) {
    throw new ConfigError(
      `${file}: "include" is empty, so no tool would be served; remove it or name the tools to serve`,
    );
  }
  return value as McpbinConfig;
}

/** Checks an object against a key table (src/shared/option-keys.ts keyProblem). @throws ConfigError naming the file, the key and what is expected. */
function checkKeys(rec: Record<string, unknown>, table: Record<string, ConfigKey>, prefix: string, file: string): void {
  const p = keyProblem(rec, table, prefix);
  if (p) throw new ConfigError(`${file}: ${p}`);
}
