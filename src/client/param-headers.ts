/** @module The client side of 2026-07-28 custom headers from tool parameters: tools whose x-mcp-header annotations break the rules are left out of tools/list (with a warning), and a tools/call mirrors each annotated argument into its Mcp-Param-{Name} header. */
import { annotations, type Annotated } from "../protocol/x-mcp-header.ts";

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
      for (const k of a.path)
        v = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
      if (typeof v === "string") h[`mcp-param-${a.name.toLowerCase()}`] = encodeHeaderValue(v);
      else if (typeof v === "number" && Number.isFinite(v)) h[`mcp-param-${a.name.toLowerCase()}`] = String(v);
      else if (typeof v === "boolean") h[`mcp-param-${a.name.toLowerCase()}`] = String(v);
    }
    return h;
  }
}
