/** @module The shape of an icon (MCP Icon, 2025-11-25+), which tools, resources, templates and prompts carry alike: a shared shape (src/shared/), imports nothing. */

/** An icon for display (MCP Icon, 2025-11-25+). */
export interface ToolIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: "light" | "dark";
}
