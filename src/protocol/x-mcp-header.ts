/** @module The rules of x-mcp-header annotations (MCP 2026-07-28 basic/transports/streamable-http, custom headers from tool parameters): which parameters a tool mirrors into Mcp-Param-{Name} headers, or why its annotations are invalid. */

/** One annotated parameter of a tool: its path in the arguments and its header name. */
export interface Annotated {
  readonly path: readonly string[];
  readonly name: string;
}

/** RFC 9110 field-name token characters (`1*tchar`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE = new Set(["string", "integer", "boolean"]);

/**
 * Reads a tool's inputSchema: its annotated parameters, or why the annotations break the rules (MCP 2026-07-28
 * basic/transports/streamable-http, custom headers: a non-empty token, unique ignoring case, on a string, integer
 * or boolean property reached from the root through `properties` keys only).
 * @returns the annotated parameters, or a reason.
 */
export function annotations(schema: unknown): Annotated[] | string {
  const out: Annotated[] = [];
  const seen = new Set<string>();
  const visit = (s: unknown, path: string[] | undefined, depth: number): string | undefined => {
    if (typeof s !== "object" || s === null || depth > 64) return undefined;
    if (Array.isArray(s)) {
      for (const x of s) {
        const why = visit(x, undefined, depth + 1);
        if (why) return why;
      }
      return undefined;
    }
    const o = s as Record<string, unknown>;
    if ("x-mcp-header" in o) {
      const name = o["x-mcp-header"];
      if (path === undefined || path.length === 0)
        return "x-mcp-header is only allowed on a property reached through properties";
      if (typeof name !== "string" || name === "")
        return `x-mcp-header of ${path.join(".")} must be a non-empty string`;
      if (!TOKEN.test(name)) return `x-mcp-header ${JSON.stringify(name)} is not an HTTP field-name token`;
      if (typeof o.type !== "string" || !PRIMITIVE.has(o.type))
        return `x-mcp-header ${JSON.stringify(name)} is on a property of type ${JSON.stringify(o.type)}; only string, integer and boolean may be mirrored`;
      if (seen.has(name.toLowerCase()))
        return `x-mcp-header ${JSON.stringify(name)} is used twice (names are compared ignoring case)`;
      seen.add(name.toLowerCase());
      out.push({ path, name });
    }
    for (const [k, v] of Object.entries(o)) {
      if (k === "properties" && path !== undefined && typeof v === "object" && v !== null && !Array.isArray(v)) {
        for (const [p, sub] of Object.entries(v as Record<string, unknown>)) {
          const why = visit(sub, [...path, p], depth + 1);
          if (why) return why;
        }
      } else if (k !== "x-mcp-header") {
        const why = visit(v, undefined, depth + 1);
        if (why) return why;
      }
    }
    return undefined;
  };
  const why = visit(schema, [], 0);
  return why ?? out;
}
