/** @module Projection of tool definitions onto the protocol version in force (MCP Tool of each version's server/tools), with protocol's version features. */
import { toolMetaWithUi } from "../apps/tool-ui.ts";
import { pick } from "../protocol/project.ts";
import { withExtras } from "../protocol/received.ts";
import type { VersionFeatures } from "../protocol/versions.ts";
import { recordedSchemaTexts } from "./recorded.ts";
import type { Tool } from "./types.ts";

/** `ToolAnnotations` (2025-03-26+) and `Icon` (2025-11-25+) keys, as each schema.json defines them. */
const TOOL_ANNOTATION_KEYS = ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
const ICON_KEYS = ["src", "mimeType", "sizes", "theme"] as const;

/**
 * A tool as listed to one version (MCP Tool): fields some version defines but this one lacks are left
 * out; an `outputSchema` the version cannot carry (non-object root before 2026-07-28) is dropped
 * and the tool stays listed. A received tool's fields that no version defines go to every version.
 */
export function projectTool(t: Tool, f: VersionFeatures): Record<string, unknown> {
  const out = toolHead(t, f);
  out.inputSchema = t.inputSchema;
  if (t.outputSchema && listsOutput(t, f)) out.outputSchema = t.outputSchema;
  // After the tail: Object.assign would take a received `__proto__` field for the prototype.
  return withExtras(Object.assign(out, toolTail(t, f)), t.received);
}

/**
 * {@link projectTool} serialized. JSON Schemas recorded at build time (src/build/precompute.ts) are
 * spliced in as their JSON text, in the same key order, instead of being parsed and serialized again.
 * @returns the tool as JSON text.
 */
export function projectToolJson(t: Tool, f: VersionFeatures): string {
  const texts = recordedSchemaTexts(t);
  if (texts.input === undefined && texts.output === undefined) return JSON.stringify(projectTool(t, f));
  let json = `${JSON.stringify(toolHead(t, f)).slice(0, -1)},"inputSchema":${texts.input ?? JSON.stringify(t.inputSchema)}`;
  if ((texts.output !== undefined || t.outputSchema) && listsOutput(t, f))
    json += `,"outputSchema":${texts.output ?? JSON.stringify(t.outputSchema)}`;
  const tail = JSON.stringify(withExtras(toolTail(t, f), t.received));
  return tail === "{}" ? `${json}}` : `${json},${tail.slice(1)}`;
}

/** name, title (2025-06-18+) and description: the fields before the schemas. */
function toolHead(t: Tool, f: VersionFeatures): Record<string, unknown> {
  const d = t.definition;
  const out: Record<string, unknown> = { name: t.name };
  if (d.title !== undefined && f.structured) out.title = d.title;
  out.description = d.description;
  return out;
}

/** Whether the version lists the tool's output schema (2025-06-18+; a non-object root only from 2026-07-28). */
function listsOutput(t: Tool, f: VersionFeatures): boolean {
  return f.structured && (f.structuredAnyRoot || t.outputSchema!.type === "object");
}

/**
 * annotations (2025-03-26+), icons (2025-11-25+), _meta (2025-06-18+) and execution (2025-11-25): the fields
 * after the schemas (a received tool's fields that no version defines come after these).
 */
function toolTail(t: Tool, f: VersionFeatures): Record<string, unknown> {
  const d = t.definition;
  const out: Record<string, unknown> = {};
  // A received tool's annotations and icons keep every key they came with; an author's extra keys never reach the wire.
  const received = t.received;
  if (d.annotations && f.toolAnnotations) {
    const a = received ? d.annotations : pick(d.annotations, TOOL_ANNOTATION_KEYS);
    if (a) out.annotations = a;
  }
  if (d.icons && f.icons)
    out.icons = d.icons.filter((i) => typeof i?.src === "string").map((i) => (received ? i : pick(i, ICON_KEYS)));
  const meta = t.ui ? toolMetaWithUi(t.ui, d.meta) : d.meta;
  if (meta && (f.structured || f.ui)) out._meta = meta;
  // MCP 2025-11-25 basic/utilities/tasks "Tool-Level Negotiation" (absent means forbidden); 2026-07-28 has no such field.
  if (d.task !== undefined && d.task !== "forbidden" && f.version === "2025-11-25")
    out.execution = { taskSupport: d.task };
  return out;
}
