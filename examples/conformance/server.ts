// The reference tools of the official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12), served by mcpbin.
import * as v from "valibot";
import { audioContent, embeddedResource, imageContent, prompt, resource, resourceTemplate, serve, textContent, tool, toolResult } from "../../src/index.ts";

/** A 1x1 red PNG. */
const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A WAV header with no samples (44 bytes). */
const SILENT_WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

const simpleText = tool({
  name: "test_simple_text",
  description: "Returns simple text content",
  run: () => "This is a simple text response for testing.",
});

const image = tool({
  name: "test_image_content",
  description: "Returns image content (a 1x1 red PNG)",
  run: () => toolResult({ content: [imageContent(RED_PIXEL_PNG, "image/png")] }),
});

const audio = tool({
  name: "test_audio_content",
  description: "Returns audio content (an empty WAV)",
  run: () => toolResult({ content: [audioContent(SILENT_WAV, "audio/wav")] }),
});

const embedded = tool({
  name: "test_embedded_resource",
  description: "Returns an embedded text resource",
  run: () => toolResult({ content: [embeddedResource({ uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." })] }),
});

const mixed = tool({
  name: "test_multiple_content_types",
  description: "Returns text, image and an embedded resource",
  run: () =>
    toolResult({
      content: [
        textContent("Multiple content types test:"),
        imageContent(RED_PIXEL_PNG, "image/png"),
        embeddedResource({ uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) }),
      ],
    }),
});

const error = tool({
  name: "test_error_handling",
  description: "Always fails (an isError result)",
  run: () => {
    throw new Error("This tool intentionally returns an error for testing");
  },
});

const progress = tool({
  name: "test_tool_with_progress",
  description: "Reports progress 0/100, 50/100, 100/100 about 50 ms apart, then returns 50 ms later",
  run: async (_args, ctx) => {
    ctx.progress(0, 100);
    await Bun.sleep(50);
    ctx.progress(50, 100);
    await Bun.sleep(50);
    ctx.progress(100, 100);
    // The suite reaches a stdio server through mcp-proxy, which forwards each progress notification
    // asynchronously and closes the HTTP stream with the response: a response right behind the last
    // notification overtakes it there (over plain stdio the order is kept). So the tool pauses once more.
    await Bun.sleep(50);
    return "Progress reporting completed";
  },
});

const jsonSchema202012 = tool({
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features",
  // The scenario wants this raw schema verbatim ($schema, $defs and $anchor kept): see docs/conformance.md.
  verbatimSchemas: true,
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
    properties: {
      name: { type: "string" },
      address: { $ref: "#/$defs/address" },
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    then: { required: ["phone"] },
    else: { required: ["email"] },
    additionalProperties: false,
  },
  run: (args) => `ok: ${JSON.stringify(args)}`,
});

// Two diagnostic tools of the 2026-07-28 server-stateless scenario: a log message is sent only when the
// request asks for a level (never without `logLevel`), and mcpbin never sends server-to-client requests.
const logging = tool({
  name: "test_logging_tool",
  description: "Logs at info (sent only when the client asked for a level)",
  run: (_args, ctx) => {
    ctx.log("info", "test_logging_tool ran");
    return "Logged";
  },
});

const toolWithLogging = tool({
  name: "test_tool_with_logging",
  description: "Sends three info log messages about 50 ms apart",
  run: async (_args, ctx) => {
    ctx.log("info", "Tool execution started");
    await Bun.sleep(50);
    ctx.log("info", "Tool processing data");
    await Bun.sleep(50);
    ctx.log("info", "Tool execution completed");
    await Bun.sleep(50); // as for progress: the last notification must not be overtaken by the response
    return "Logging completed";
  },
});

// The suite's resources, template and prompts (resources-*, prompts-*, completion-complete, caching).
const staticText = resource({ uri: "test://static-text", name: "static-text", description: "A static text resource", mimeType: "text/plain", text: "This is the content of the static text resource." });
const staticBinary = resource({ uri: "test://static-binary", name: "static-binary", description: "A static binary resource (a PNG)", mimeType: "image/png", blob: Uint8Array.from(atob(RED_PIXEL_PNG), (c) => c.charCodeAt(0)) });
const watched = resource({ uri: "test://watched-resource", name: "watched-resource", description: "A resource to subscribe to", mimeType: "text/plain", text: "Watched resource content." });
const template = resourceTemplate({
  uriTemplate: "test://template/{id}/data",
  name: "template-data",
  description: "A template substituting {id}",
  mimeType: "application/json",
  read: ({ id }: Record<string, string>) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
});
const simplePrompt = prompt({ name: "test_simple_prompt", description: "A prompt with no arguments", get: () => "This is a simple prompt for testing." });
const promptWithArguments = prompt({
  name: "test_prompt_with_arguments",
  description: "A prompt with two required arguments",
  arguments: v.object({ arg1: v.pipe(v.string(), v.description("First test argument")), arg2: v.pipe(v.string(), v.description("Second test argument")) }),
  complete: { arg1: (value) => ["paris", "park", "party"].filter((x) => x.startsWith(value)) },
  get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
});
const promptWithResource = prompt({
  name: "test_prompt_with_embedded_resource",
  description: "A prompt embedding a resource",
  arguments: v.object({ resourceUri: v.pipe(v.string(), v.description("URI of the resource to embed")) }),
  get: ({ resourceUri }) => [
    { role: "user", content: embeddedResource({ uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." }) },
    { role: "user", content: "Please process the embedded resource above." },
  ],
});
const promptWithImage = prompt({
  name: "test_prompt_with_image",
  description: "A prompt with an image",
  get: () => [
    { role: "user", content: imageContent(RED_PIXEL_PNG, "image/png") },
    { role: "user", content: "Please analyze the image above." },
  ],
});

const streamingElicitation = tool({
  name: "test_streaming_elicitation",
  description: "Answers with text: an mcpbin tool cannot elicit, and the server never sends requests on a response stream",
  run: () => "No elicitation: mcpbin servers send no server-to-client requests",
});

await serve({
  name: "mcpbin-conformance",
  version: "1.0.0",
  instructions: "The conformance suite's reference tools.",
  tools: [simpleText, image, audio, embedded, mixed, error, progress, jsonSchema202012, logging, toolWithLogging, streamingElicitation],
  resources: [staticText, staticBinary, watched, template],
  prompts: [simplePrompt, promptWithArguments, promptWithResource, promptWithImage],
});
