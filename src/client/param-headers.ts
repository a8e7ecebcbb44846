/** @module The client side of 2026-07-28 custom headers from tool parameters: tools whose x-mcp-header annotations break the rules are left out of tools/list (with a warning), and a tools/call mirrors each annotated argument into its Mcp-Param-{Name} header. */

/** One annotated parameter of a tool: its path in the arguments and its header name. */
interface Annotated {
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
      if (path === undefined || path.length === 0) return "x-mcp-header is only allowed on a property reached through properties";
      if (typeof name !== "string" || name === "") return `x-mcp-header of ${path.join(".")} must be a non-empty string`;
      if (!TOKEN.test(name)) return `x-mcp-header ${JSON.stringify(name)} is not an HTTP field-name token`;
      if (typeof o.type !== "string" || !PRIMITIVE.has(o.type)) return `x-mcp-header ${JSON.stringify(name)} is on a property of type ${JSON.stringify(o.type)}; only string, integer and boolean may be mirrored`;
      if (seen.has(name.toLowerCase())) return `x-mcp-header ${JSON.stringify(name)} is used twice (names are compared ignoring case)`;
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

/** A header value: as is when printable ASCII without surrounding space and not the sentinel's shape, else `=?base64?…?=`. */
export function encodeHeaderValue(v: string): string {
  const plain = /^[\x20-\x7e]*$/.test(v) && v.trim() === v && !(v.startsWith("=?base64?") && v.endsWith("?="));
  return plain ? v : `=?base64?${Buffer.from(v, "utf8").toString("base64")}?=`;
}

/** The annotations of the tools a server listed, by tool name, learnt from its tools/list answers. */
export class ToolHeaders {
  readonly #byTool = new Map<string, Annotated[]>();

  /** @param warn - told of each tool left out, with the reason. */
  constructor(readonly warn: (message: string) => void) {}

  /**
   * Reads a tools/list response line: remembers each tool's annotations, and leaves out the tools whose
   * annotations break the rules (warning for each).
   * @returns the line to deliver (rewritten only when a tool was left out).
   */
  observeList(line: string): string {
    let m: { result?: { tools?: { name?: unknown; inputSchema?: unknown }[] } };
    try {
      m = JSON.parse(line);
    } catch {
      return line;
    }
    const tools = m.result?.tools;
    if (!Array.isArray(tools)) return line;
    const kept = tools.filter((t) => {
      const a = annotations(t.inputSchema);
      if (typeof a === "string") {
        this.warn(`tool ${JSON.stringify(t.name)} left out: ${a}`);
        return false;
      }
      if (typeof t.name === "string") this.#byTool.set(t.name, a);
      return true;
    });
    return kept.length === tools.length ? line : JSON.stringify({ ...m, result: { ...m.result, tools: kept } });
  }

  /** The Mcp-Param-* headers of a call to `tool` with `args` (a parameter without a value, or null, has none). */
  headersFor(tool: string, args: unknown): Record<string, string> {
    const h: Record<string, string> = {};
    for (const a of this.#byTool.get(tool) ?? []) {
      let v: unknown = args;
      for (const k of a.path) v = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
      if (typeof v === "string") h[`mcp-param-${a.name.toLowerCase()}`] = encodeHeaderValue(v);
      else if (typeof v === "number" && Number.isFinite(v)) h[`mcp-param-${a.name.toLowerCase()}`] = String(v);
      else if (typeof v === "boolean") h[`mcp-param-${a.name.toLowerCase()}`] = String(v);
    }
    return h;
  }
}
