/** @module The tool model of an OpenAPI operation: its argument fields and where each goes, and which operations become tools (the selection). */
import type { JsonSchema } from "../schema/json-schema.ts";

/** Where an argument goes in the request. */
export type FieldLocation = "path" | "query" | "header" | "cookie" | "body" | "bodyProperty";

/** One property of a tool's input and where its value is sent. */
export interface ArgField {
  /** The property name in the tool's input (the parameter's name, suffixed `__query` etc. on a collision). */
  readonly arg: string;
  readonly in: FieldLocation;
  /** The parameter or body property name on the wire. */
  readonly name: string;
  /** Parameter `style` (defaults by location: form for query/cookie, simple for path/header). */
  readonly style: string;
  readonly explode: boolean;
}

/** An operation ready to become a tool. */
export interface Operation {
  /** The tool name: valid, unique, the same on every run. */
  readonly name: string;
  readonly operationId?: string;
  /** Upper case, e.g. "GET". */
  readonly method: string;
  /** The path template, e.g. "/pets/{petId}". */
  readonly path: string;
  readonly summary?: string;
  /** The tool description: summary and description. */
  readonly description: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly fields: readonly ArgField[];
  /** The request body's media type, when the operation takes a body. */
  readonly bodyType?: string;
  /** Security requirements in force (alternatives; `{}` among them makes credentials optional). */
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  /** Servers of the path item or operation, when they override the document's. */
  readonly servers?: readonly { url: string; variables?: Record<string, { default?: string }> }[];
  /** The input JSON Schema (built on first call, then kept). */
  inputSchema(): JsonSchema;
  /** The JSON Schema of the first 2xx JSON response (an object root: a non-object is wrapped as `result`), if any. */
  outputSchema(): JsonSchema | undefined;
}

/** Which operations become tools. */
export interface Selection {
  /**
   * Keep only operations matching one of these (default all): a glob on the operationId or the tool name
   * (`pets*`, `*_issue`, `{get,list}_*`), `tag:NAME` (a glob on the tags), or `path:GLOB` (on the path
   * template, `/pets/*`). Globs are Bun.Glob's, case-sensitive, as every filter of mcpbin.
   */
  readonly include?: readonly string[];
  /** Leave out operations matching one of these (same patterns as `include`). */
  readonly exclude?: readonly string[];
  /** Keep only these HTTP methods (any case). */
  readonly methods?: readonly string[];
  /** Keep only GET and HEAD operations. Default false. */
  readonly readOnly?: boolean;
  /** Tool names by operationId (or `METHOD /path`), overriding the derived name and `x-mcp-name`. */
  readonly names?: Readonly<Record<string, string>>;
  /** Longest tool description, characters; longer ones are cut with "…". Default 1024. */
  readonly maxDescription?: number;
}
