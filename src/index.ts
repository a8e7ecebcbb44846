/** @module Public API for tool authors: explicit named exports only. */
export { tool, isTool } from "./tools/define.ts";
export { transformTool } from "./tools/transform.ts";
export type { TransformOptions, ArgTransform } from "./tools/transform.ts";
export { ToolDefinitionError, ToolArgumentsError } from "./tools/errors.ts";
export { TOOL_NAME } from "./tools/name.ts";
export type {
  Tool,
  ToolDefinition,
  ToolContext,
  ToolAnnotations,
  ToolIcon,
  ToolSource,
  TaskSupport,
} from "./tools/types.ts";
export { elicitation } from "./ask/elicit-schema.ts";
export { AskError, ElicitSchemaError } from "./ask/errors.ts";
export type { AskErrorCode } from "./ask/errors.ts";
export type {
  Asker,
  ElicitForm,
  ElicitFormRequest,
  ElicitFormResult,
  ElicitObjectSchema,
  ElicitUrlRequest,
  ElicitUrlResult,
  Root,
  RootsRequest,
  SampleRequest,
  SampleResult,
  SamplingContent,
  SamplingMessage,
} from "./ask/types.ts";
export { serve } from "./serve/serve.ts";
export { createServer } from "./serve/create-server.ts";
export type { McpServer } from "./serve/create-server.ts";
export type { MountOptions, MountedServer } from "./server/mcp-server.ts";
export { rateLimit, type RateLimitKey } from "./tools/rate-limit.ts";
export { maskErrors, ToolError } from "./tools/mask-errors.ts";
export { cacheResults } from "./tools/cache-results.ts";
export type { Middleware, McpRequest, Next } from "./server/middleware.ts";
export { RpcError, ErrorCode } from "./protocol/jsonrpc.ts";
export type { ServerOptions } from "./shared/server-options.ts";
export type { HttpOptions } from "./shared/http-options.ts";
export { HttpOptionsError } from "./transport/http-options.ts";
export { toolResult, isToolResult, ContentError } from "./shared/result.ts";
export { textContent, imageContent, audioContent, resourceLink, embeddedResource } from "./shared/content-blocks.ts";
export type { ToolResult, ContentBlock, ContentOptions, Annotations } from "./shared/result.ts";
export type { JsonOptions } from "./shared/json.ts";
export type { JsonSchema } from "./schema/json-schema.ts";
export { defineConfig, ConfigError } from "./config/define.ts";
export type { McpbinConfig } from "./config/define.ts";
export { app, isApp, AppDefinitionError, APP_MIME_TYPE, UI_EXTENSION } from "./apps/app.ts";
export type { App, AppDefinition, AppCsp, AppPermissions, AppUiMeta } from "./apps/app.ts";
export type { ToolUiOption, ToolVisibility } from "./apps/tool-ui.ts";
export { resource, resourceTemplate, isResource, isResourceTemplate, ResourceReadError } from "./content/resource.ts";
export { resolveUnder } from "./content/path-under.ts";
export type {
  Resource,
  ResourceDefinition,
  ResourceTemplate,
  ResourceTemplateDefinition,
  ResourceContents,
  ContentItem,
  ReadValue,
  ListedResource,
  Completer,
} from "./content/resource.ts";
export { prompt, isPrompt, PromptArgumentsError } from "./content/prompt.ts";
export type {
  Prompt,
  PromptDefinition,
  PromptArgument,
  PromptMessage,
  PromptMessageInput,
  PromptResult,
  PromptValue,
} from "./content/prompt.ts";
export { ContentDefinitionError } from "./content/common.ts";
export type { ContentContext, CacheHints, ResourceAnnotations, ContentSource } from "./content/common.ts";
export { openapiTools } from "./openapi/tools.ts";
export type { OpenApiToolsOptions, FetchLike } from "./openapi/tools.ts";
export type { AuthOptions, Credential } from "./openapi/auth.ts";
export type { AuthOptions as HttpAuthOptions, IntrospectionOptions } from "./shared/http-options.ts";
export type { AuthInfo } from "./shared/auth.ts";
export type { ClientAuth, OAuthClientOptions } from "./shared/oauth-client.ts";
export { fileTokenStore, memoryTokenStore } from "./auth/token-store.ts";
export type { StoredClient, StoredEntry, StoredTokens, TokenStore } from "./shared/oauth-client.ts";
export type { OpenApiSource, OpenApiDocument } from "./openapi/document.ts";
export { OpenApiError } from "./openapi/document.ts";
export { mcpHandler } from "./serve/handler.ts";
export type { McpHandler } from "./serve/handler.ts";
export type { LoggingLevel } from "./protocol/logging.ts";
// The client is loaded on first use: these wrappers import their modules when called (a server start never evaluates the client).
export { connect, upstreamTools, upstreamContent, listSkills, getSkill, readSkillFile } from "./client/lazy.ts";
export { skills, isSkillSet } from "./skills/skill-set.ts";
export type { SkillSet } from "./skills/skill-set.ts";
export { SkillDefinitionError } from "./skills/scan.ts";
export { SKILLS_EXTENSION, SkillVerificationError } from "./skills/types.ts";
export type { SkillEntry } from "./skills/types.ts";
export type { ConnectOptions, ConnectTarget } from "./client/connect.ts";
export type {
  McpClient,
  ClientOptions,
  CallOptions,
  CallToolResult,
  UpstreamTool,
  Implementation,
  ServerRequestHandler,
} from "./client/client.ts";
export type { ClientTasks, ClientTask, TaskAnswerer } from "./client/tasks.ts";
export type { ClientTransport, TransportSink } from "./client/transport.ts";
export type { StdioTarget, StderrMode } from "./client/stdio.ts";
export type { HttpTarget } from "./client/http.ts";
export { passthroughTool } from "./client/upstream-tools.ts";
export type { ContentProvider } from "./content/provider.ts";
export type { UpstreamToolsOptions, UpstreamCall } from "./client/upstream-tools.ts";
export { safeName, exposedNames, NamingError } from "./client/naming.ts";
export type { NamingStrategy } from "./shared/upstreams.ts";
export { OutboundError } from "./server/outbound.ts";
export type { OutboundErrorCode } from "./server/outbound.ts";
