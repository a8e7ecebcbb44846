/** @module What the upstreams' content provider shares: an upstream as it reaches it, the capabilities it advertised, its failures as wire errors, the cache hints of its reads, and prompt names. */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { OutboundError } from "../server/outbound.ts";
import type { CacheHints } from "../content/common.ts";
import type { JsonObject, McpClient } from "./client.ts";
import { exposedNames, type NamingStrategy } from "./naming.ts";

/** One upstream as the content provider reaches it. */
export interface ContentUpstream {
  readonly name: string;
  /** The connected client (connecting or restarting when needed). @throws OutboundError */
  connect(): Promise<McpClient>;
  /** What it advertised at its last handshake; undefined before it has answered one (it may serve anything). */
  readonly capabilities: JsonObject | undefined;
  /** Whether it is connected now (refreshPrompts asks only those: it never starts a lazy upstream). */
  readonly connected: boolean;
}

/** One capability of an upstream: what it advertised, or (not started yet) everything it could. */
export function caps(u: ContentUpstream, key: string): JsonObject | undefined {
  if (u.capabilities === undefined)
    return key === "resources"
      ? { subscribe: true, listChanged: true }
      : key === "prompts"
        ? { listChanged: true }
        : {};
  const c = u.capabilities[key];
  return typeof c === "object" && c !== null ? (c as JsonObject) : undefined;
}

/** An upstream's failure as the wire error: its own error code and message (a not-found becomes ours), else -32603 naming it. */
export function wireError(e: unknown): unknown {
  if (!(e instanceof OutboundError)) return e;
  const rpc = e.rpc;
  if (e.code === "rpc" && rpc) {
    const data = rpc.data as { uri?: unknown } | undefined;
    if (
      rpc.code === ErrorCode.ResourceNotFound ||
      (rpc.code === ErrorCode.InvalidParams && typeof data?.uri === "string")
    )
      return new RpcError(ErrorCode.ResourceNotFound, rpc.message, rpc.data);
    return new RpcError(rpc.code, rpc.message, rpc.data);
  }
  return new RpcError(ErrorCode.InternalError, e.message);
}

/** Cache hints a 2026-07-28 upstream sent with a read; undefined from a legacy one. */
export function hintsOf(r: JsonObject): CacheHints | undefined {
  const ttl = r.ttlMs;
  const scope = r.cacheScope;
  return Number.isSafeInteger(ttl) && (ttl as number) >= 0 && (scope === "public" || scope === "private")
    ? { ttlMs: ttl as number, scope }
    : undefined;
}

/** Exposed prompt name → the upstream and its name there, by the naming strategy (as tools are named). */
export function nameAll(
  servers: readonly { server: string; names: readonly string[] }[],
  naming: NamingStrategy,
): Map<string, { server: string; name: string }> {
  let names: Map<string, Map<string, string>>;
  try {
    names = exposedNames(
      servers.map((s) => ({ server: s.server, tools: s.names })),
      naming,
    );
  } catch {
    // Strategy "none" with two prompts of one name: prompts are not a start error; they are told apart as on-collision.
    names = exposedNames(
      servers.map((s) => ({ server: s.server, tools: s.names })),
      "on-collision",
    );
  }
  const out = new Map<string, { server: string; name: string }>();
  for (const s of servers)
    for (const n of s.names) out.set(names.get(s.server)!.get(n)!, { server: s.server, name: n });
  return out;
}
