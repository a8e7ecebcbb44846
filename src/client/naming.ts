/** @module Exposed names of other servers' tools: the strategy (prefix, on-collision, none), the `__` separator, character mapping and the stable hash cut. */
import type { NamingStrategy } from "../shared/upstreams.ts";

/** The strategy's shape lives with the server options (src/shared/upstreams.ts); the client's modules take it from here. */
export type { NamingStrategy };

/** Between the server's name and the tool's. */
export const SEPARATOR = "__";
/** The longest exposed name: the limit every major client enforces (`^[A-Za-z0-9_-]{1,64}$`). */
export const MAX_NAME = 64;

/** An upstream's tool names, in listing order. */
export interface NamedTools {
  readonly server: string;
  readonly tools: readonly string[];
}

/** A mistake in naming that cannot be resolved quietly (two servers exposing one name under strategy "none", an alias taken twice). */
export class NamingError extends Error {
  readonly code = "NAMING";
  constructor(message: string) {
    super(message);
    this.name = "NamingError";
  }
}

/** Six hex digits of SHA-256 of `s`: the same on every run and machine. */
function hash6(s: string): string {
  return sha256Hex(s).slice(0, 6);
}

/**
 * A name every client accepts: characters outside `A-Z a-z 0-9 _ -` become `_`; a name longer than
 * `max` is cut and ends in `_` plus six hex digits of its SHA-256 (computed from `raw`, so two long
 * names that share a beginning stay apart); an empty name becomes `_` plus the hash.
 * @param raw - the name as composed (e.g. `github__search.code`).
 * @param max - the length cap (default 64).
 * @returns a name matching `^[A-Za-z0-9_-]{1,max}$`, the same for the same input on every run.
 */
export function safeName(raw: string, max = MAX_NAME): string {
  const mapped = raw.replace(/[^A-Za-z0-9_-]/g, "_");
  if (mapped.length === 0) return `_${hash6(raw)}`;
  if (mapped.length <= max) return mapped;
  return `${mapped.slice(0, max - 7)}_${hash6(raw)}`;
}

/**
 * `name` told apart from an equal one: cut to leave room, then `_` and six hex digits of `key`'s SHA-256.
 * @param name - a name that is already safe ({@link safeName}).
 * @param key - what identifies the thing named (e.g. server and tool), stable across runs.
 */
export function withHash(name: string, key: string): string {
  return `${name.slice(0, MAX_NAME - 7)}_${hash6(key)}`;
}

/**
 * The exposed name of every upstream tool.
 * @param servers - each server's name and tool names.
 * @param strategy - see {@link NamingStrategy}.
 * @param aliases - per server, upstream tool name → the exposed name wanted (checked like the others).
 * @returns `server` → (upstream tool name → exposed name). Every exposed name is unique and matches
 *   `^[A-Za-z0-9_-]{1,64}$`; names that mapping made equal are told apart by a hash suffix.
 * @throws NamingError under "none" when two servers expose one name, or when an alias is taken twice.
 */
export function exposedNames(
  servers: readonly NamedTools[],
  strategy: NamingStrategy = "on-collision",
  aliases: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): Map<string, Map<string, string>> {
  const count = new Map<string, number>();
  for (const s of servers) for (const t of new Set(s.tools)) count.set(t, (count.get(t) ?? 0) + 1);
  const wanted: { server: string; tool: string; raw: string; alias: boolean }[] = [];
  for (const s of servers) {
    for (const tool of s.tools) {
      const alias = aliases[s.server]?.[tool];
      const prefixed = strategy === "prefix" || (strategy === "on-collision" && count.get(tool)! > 1);
      wanted.push({
        server: s.server,
        tool,
        raw: alias ?? (prefixed ? `${s.server}${SEPARATOR}${tool}` : tool),
        alias: alias !== undefined,
      });
    }
  }
  // Names that end up equal after mapping: explicit names (aliases, and unmapped ones) keep theirs, mapped ones get a hash.
  const byName = new Map<string, typeof wanted>();
  for (const w of wanted) {
    const n = safeName(w.raw);
    byName.set(n, [...(byName.get(n) ?? []), w]);
  }
  const out = new Map<string, Map<string, string>>(servers.map((s) => [s.server, new Map()]));
  for (const [name, ws] of byName) {
    if (ws.length > 1 && strategy === "none" && ws.every((w) => w.raw === name)) {
      throw new NamingError(
        `the tool name "${name}" is exposed by ${ws.map((w) => `"${w.server}"`).join(" and ")}: use the naming strategy "on-collision" or "prefix", or give one an alias`,
      );
    }
    const aliased = ws.filter((w) => w.alias && w.raw === name);
    if (aliased.length > 1)
      throw new NamingError(
        `the alias "${name}" is given to ${aliased.map((w) => `"${w.server}.${w.tool}"`).join(" and ")}: give each a name of its own`,
      );
    ws.forEach((w, i) => {
      // The first one that needed no mapping keeps the plain name; every other one is told apart by its hash.
      const keeps = ws.length === 1 || (w.raw === name && ws.findIndex((x) => x.raw === name) === i);
      out.get(w.server)!.set(w.tool, keeps ? name : withHash(name, `${w.server}\u0000${w.tool}`));
    });
  }
  return out;
}

/** SHA-256 of a string as hex, with Bun's native hasher: importing node:crypto would be evaluated at every server start (src/index.ts re-exports the client; docs/benchmarks.md). */
export function sha256Hex(s: string): string {
  return new Bun.CryptoHasher("sha256").update(s).digest("hex");
}
