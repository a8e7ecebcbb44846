/** @module Public API for tool authors: explicit named exports only. */
export { tool, isTool, ToolDefinitionError, ToolArgumentsError, TOOL_NAME } from "./tool.ts";
export type { Tool, ToolDefinition, ToolContext, ToolAnnotations, ToolIcon, ToolSource } from "./tool.ts";
export { serve } from "./serve.ts";
export type { ServerOptions } from "./server/options.ts";
export type { HttpOptions } from "./transport/http-options.ts";
export { HttpOptionsError } from "./transport/http-options.ts";
export { toolResult, textContent, imageContent, audioContent, resourceLink, embeddedResource, isToolResult, ContentError } from "./result.ts";
export type { ToolResult, ContentBlock, ContentOptions, Annotations } from "./result.ts";
export type { JsonOptions } from "./json.ts";
export type { JsonSchema } from "./schema.ts";
export { defineConfig, ConfigError } from "./config/define.ts";
export type { McpbinConfig } from "./config/define.ts";
export { app, isApp, AppDefinitionError, APP_MIME_TYPE, UI_EXTENSION } from "./apps/app.ts";
export type { App, AppDefinition, AppCsp, AppPermissions, AppUiMeta } from "./apps/app.ts";
export type { ToolUiOption, ToolVisibility } from "./apps/tool-ui.ts";
