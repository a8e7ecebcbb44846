/** @module The shapes a middleware author sees: McpRequest, Next, Middleware, and the request context they read (docs/middleware.md). */
import type { ServerHandle } from "../shared/server-handle.ts";

/** Who the client is: legacy from `initialize`, 2026-07-28 from each request's `_meta`. */
export interface ClientInfo {
  /** `clientInfo.name`, when it sent one. */
  readonly name?: string;
  /** `clientInfo.version`, when it sent one. */
  readonly version?: string;
  /** Its `Implementation` (name, version, …) when it sent one. */
  readonly info?: Readonly<Record<string, unknown>>;
  /** Its declared capabilities (`{}` when none). */
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/**
 * The request's context as a middleware reads it (docs/middleware.md "The request context"): a tool's
 * ToolContext (the tools capability adds it, src/tools/types.ts) whose `client` and `server` are always there.
 * The pipeline passes its own request context (src/server/context.ts), which has these and more.
 */
export interface MiddlewareContext {
  readonly client: ClientInfo;
  readonly server: ServerHandle;
}

/** One request as middleware sees it. `params` may be replaced (tools/call: `{ name, arguments }`). */
export interface McpRequest {
  /** The method, e.g. `tools/call`, `tools/list`, `resources/read`, `initialize`. */
  readonly method: string;
  /** The params as the method's schema checked them. */
  params: any;
  /** The request's context: `client`, `session`, `http`, `auth`, `server`, `signal`, … */
  readonly ctx: MiddlewareContext;
}

/** Runs the rest of the chain (then the method's handler) with this request; resolves to its result. */
export type Next = (request: McpRequest) => Promise<any>;

/**
 * A middleware: reads (or changes) the request, calls `next(request)` and returns its result (or another
 * one), or returns a result without calling it (a short-circuit), or throws an `RpcError`-like error for a
 * JSON-RPC error. Results are the method's version-neutral result: for `tools/call` a CallResult
 * (`{ content, isError?, structuredContent? }`), for list methods an opaque projected value.
 */
export type Middleware = (request: McpRequest, next: Next) => unknown;
