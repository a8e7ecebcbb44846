/** @module The upstream server entries: the `mcpServers` file of Claude Desktop and Cursor, VS Code's `servers`, and the `upstreams` config key, with `${VAR}` expansion. */
import type { UpstreamConfig } from "../shared/upstreams.ts";

/** The entry's shape lives with the server options (src/shared/upstreams.ts); the client's modules take it from here. */
export type { UpstreamConfig };

/** A mistake in an upstream entry; the message names the file, the server and the key. */
export class ServersFileError extends Error {
  readonly code = "SERVERS_FILE";
  constructor(message: string) {
    super(message);
    this.name = "ServersFileError";
  }
}

/** The result of reading entries: the usable ones, and one message per entry left out. */
export interface ParsedServers {
  readonly servers: Record<string, UpstreamConfig>;
  readonly problems: string[];
}

/** `${VAR}`, `${env:VAR}` and `${VAR:-default}`: the name, then the default. */
const VAR = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * The environment variables the `${VAR}` expansions of upstream entries read (in every string of an
 * entry: command, args, env, cwd, url, headers), so a built server's client configuration can give
 * each a slot; disabled entries are left out.
 * @param entries - name → entry, as written (not yet expanded).
 * @returns the names, sorted, each once.
 */
export function upstreamVars(entries: Readonly<Record<string, unknown>>): string[] {
  const names = new Set<string>();
  const walk = (x: unknown): void => {
    if (typeof x === "string") for (const m of x.matchAll(VAR)) names.add(m[1]!);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (isObject(x)) Object.values(x).forEach(walk);
  };
  for (const raw of Object.values(entries)) if (!(isObject(raw) && raw.disabled === true)) walk(raw);
  return [...names].sort();
}

/**
 * Expands `${VAR}`, `${env:VAR}` (VS Code) and `${VAR:-default}` from `env`.
 * @param s - the text.
 * @param env - the variables (default `process.env`).
 * @returns the text expanded.
 * @throws ServersFileError naming the variable when one without a default is not set.
 */
export function expandVars(s: string, env: NodeJS.ProcessEnv = process.env): string {
  return s.replace(VAR, (_, name: string, dflt: string | undefined) => {
    const v = env[name];
    if (v !== undefined) return v;
    if (dflt !== undefined) return dflt;
    throw new ServersFileError(`the environment variable ${name} is not set`);
  });
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");
const stringMap = (x: unknown): x is Record<string, string> =>
  isObject(x) && Object.values(x).every((s) => typeof s === "string");

/**
 * Checks and expands one entry.
 * @param name - the server's key.
 * @param raw - the entry as written.
 * @param env - the variables for `${VAR}`.
 * @returns the entry, or undefined when it is disabled.
 * @throws ServersFileError saying which key is wrong and what is expected.
 */
export function parseServerEntry(
  name: string,
  raw: unknown,
  env: NodeJS.ProcessEnv = process.env,
): UpstreamConfig | undefined {
  if (!isObject(raw)) throw new ServersFileError(`"${name}" must be an object with "command" or "url"`);
  if (raw.disabled === true) return undefined;
  const x = (s: string) => expandVars(s, env);
  const type = raw.type;
  if (type !== undefined && !["stdio", "http", "streamable-http", "streamableHttp", "sse"].includes(type as string)) {
    throw new ServersFileError(`"${name}".type must be "stdio" or "http"; got ${JSON.stringify(type)}`);
  }
  const out: Record<string, unknown> = {};
  if (typeof raw.command === "string" && raw.command !== "") {
    if (raw.url !== undefined) throw new ServersFileError(`"${name}" has both "command" and "url": give one`);
    out.command = x(raw.command);
    if (raw.args !== undefined) {
      if (!strings(raw.args)) throw new ServersFileError(`"${name}".args must be an array of strings`);
      out.args = raw.args.map(x);
    }
    if (raw.cwd !== undefined) {
      if (typeof raw.cwd !== "string") throw new ServersFileError(`"${name}".cwd must be a string`);
      out.cwd = x(raw.cwd);
    }
  } else if (typeof raw.url === "string" && raw.url !== "") {
    if (type === "sse")
      throw new ServersFileError(
        `"${name}": the old HTTP+SSE transport (type "sse") is not supported; use the server's Streamable HTTP endpoint`,
      );
    const url = x(raw.url);
    try {
      new URL(url);
    } catch {
      throw new ServersFileError(`"${name}".url is not a URL: ${JSON.stringify(raw.url)}`);
    }
    out.url = url;
    if (raw.headers !== undefined) {
      if (!stringMap(raw.headers)) throw new ServersFileError(`"${name}".headers must be an object of strings`);
      out.headers = Object.fromEntries(Object.entries(raw.headers).map(([k, v]) => [k, x(v)]));
    }
    if (raw.oauth !== undefined) {
      if (raw.oauth !== true && raw.oauth !== false && !isObject(raw.oauth))
        throw new ServersFileError(`"${name}".oauth must be true or an object { clientId?, scopes?, … }`);
      if (raw.oauth !== false) out.oauth = raw.oauth;
    }
  } else {
    throw new ServersFileError(
      `"${name}" needs "command" (a program to run over stdio) or "url" (a Streamable HTTP endpoint)`,
    );
  }
  if (raw.env !== undefined) {
    if (!stringMap(raw.env)) throw new ServersFileError(`"${name}".env must be an object of strings`);
    out.env = Object.fromEntries(Object.entries(raw.env).map(([k, v]) => [k, x(v)]));
  }
  for (const k of ["include", "exclude", "inheritEnv"] as const) {
    if (raw[k] === undefined) continue;
    if (!strings(raw[k])) throw new ServersFileError(`"${name}".${k} must be an array of strings`);
    out[k] = raw[k];
  }
  if (raw.aliases !== undefined) {
    if (!stringMap(raw.aliases))
      throw new ServersFileError(`"${name}".aliases must be an object of upstream tool name → exposed name`);
    out.aliases = raw.aliases;
  }
  for (const k of ["startTimeoutMs", "timeoutMs"] as const) {
    if (raw[k] === undefined) continue;
    const n = raw[k];
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 2_147_483_647)
      throw new ServersFileError(`"${name}".${k} must be an integer number of milliseconds 0-2147483647`);
    out[k] = n;
  }
  if (raw.instructions !== undefined) {
    if (typeof raw.instructions !== "boolean")
      throw new ServersFileError(`"${name}".instructions must be true or false`);
    out.instructions = raw.instructions;
  }
  if (raw.start !== undefined) {
    if (raw.start !== "eager" && raw.start !== "lazy")
      throw new ServersFileError(`"${name}".start must be "eager" or "lazy"; got ${JSON.stringify(raw.start)}`);
    out.start = raw.start;
  }
  // Marked as parsed (its ${VAR}s expanded): the gateway does not expand it a second time.
  Object.defineProperty(out, PARSED, { value: true });
  return out as UpstreamConfig;
}

/** Set (not enumerable) on an entry {@link parseServerEntry} returned. */
export const PARSED = Symbol.for("mcpbin.upstream.parsed");

/**
 * Entries as the `upstreams` option gives them: each checked and `${VAR}`-expanded (unless it already was);
 * a disabled entry is skipped, one with a mistake or an unset variable is left out and reported.
 * @param entries - name → entry.
 * @param env - the variables for `${VAR}`.
 * @returns as {@link parseServers}.
 */
export function parseEntries(
  entries: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
): ParsedServers {
  const servers: Record<string, UpstreamConfig> = {};
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    try {
      const s =
        typeof raw === "object" && raw !== null && PARSED in raw
          ? (raw as UpstreamConfig)
          : parseServerEntry(name, raw, env);
      if (s && !s.disabled) servers[name] = s;
    } catch (e) {
      problems.push(
        e instanceof ServersFileError && !e.message.startsWith(`"${name}"`)
          ? `"${name}": ${e.message}`
          : (e as Error).message,
      );
    }
  }
  return { servers, problems };
}

/**
 * Reads the server entries of a clients' config file: `mcpServers` (Claude Desktop, Cursor, Claude Code)
 * or `servers` (VS Code `mcp.json`), or a plain object of entries. Disabled entries are skipped; an entry
 * with a mistake (or an unset `${VAR}`) is left out and reported, so one bad entry never blocks the others.
 * @param json - the parsed file.
 * @param env - the variables for `${VAR}`.
 * @returns the usable entries and one line per entry left out.
 * @throws ServersFileError when the file has no entries object at all.
 */
export function parseServers(json: unknown, env: NodeJS.ProcessEnv = process.env): ParsedServers {
  if (!isObject(json)) throw new ServersFileError(`expected a JSON object with "mcpServers" (or "servers")`);
  const entries = isObject(json.mcpServers) ? json.mcpServers : isObject(json.servers) ? json.servers : undefined;
  if (!entries) throw new ServersFileError(`no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object`);
  return parseEntries(entries, env);
}

/**
 * Reads and parses a servers file.
 * @param path - the file.
 * @returns as {@link parseServers}.
 * @throws ServersFileError naming the file when it cannot be read or is not JSON.
 */
export async function readServersFile(path: string, env: NodeJS.ProcessEnv = process.env): Promise<ParsedServers> {
  let text: string;
  try {
    text = await Bun.file(path).text();
  } catch (e) {
    throw new ServersFileError(`${path}: cannot read it (${(e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ServersFileError(`${path}: not valid JSON (${(e as Error).message})`);
  }
  try {
    return parseServers(json, env);
  } catch (e) {
    throw new ServersFileError(`${path}: ${(e as Error).message}`);
  }
}
