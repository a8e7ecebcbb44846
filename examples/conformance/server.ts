// The reference tools of the official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12), served by mcpbin.
import * as v from "valibot";
import {
  AskError,
  audioContent,
  embeddedResource,
  imageContent,
  prompt,
  resource,
  resourceTemplate,
  serve,
  textContent,
  tool,
  toolResult,
} from "../../src/index.ts";
import { TASK_TOOLS } from "./tasks.ts";

/** A 1x1 red PNG. */
const RED_PIXEL_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
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
  run: () =>
    toolResult({
      content: [
        embeddedResource({
          uri: "test://embedded-resource",
          mimeType: "text/plain",
          text: "This is an embedded resource content.",
        }),
      ],
    }),
});

const mixed = tool({
  name: "test_multiple_content_types",
  description: "Returns text, image and an embedded resource",
  run: () =>
    toolResult({
      content: [
        textContent("Multiple content types test:"),
        imageContent(RED_PIXEL_PNG, "image/png"),
        embeddedResource({
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        }),
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
    $defs: {
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    },
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

// Diagnostic tools of the 2026-07-28 server-stateless scenario: a log message is sent only when the
// request asks for a level (never without `logLevel`).
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
const staticText = resource({
  uri: "test://static-text",
  name: "static-text",
  description: "A static text resource",
  mimeType: "text/plain",
  text: "This is the content of the static text resource.",
});
const staticBinary = resource({
  uri: "test://static-binary",
  name: "static-binary",
  description: "A static binary resource (a PNG)",
  mimeType: "image/png",
  blob: Uint8Array.from(atob(RED_PIXEL_PNG), (c) => c.charCodeAt(0)),
});
const watched = resource({
  uri: "test://watched-resource",
  name: "watched-resource",
  description: "A resource to subscribe to",
  mimeType: "text/plain",
  text: "Watched resource content.",
});
const template = resourceTemplate({
  uriTemplate: "test://template/{id}/data",
  name: "template-data",
  description: "A template substituting {id}",
  mimeType: "application/json",
  read: ({ id }: Record<string, string>) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
});
const simplePrompt = prompt({
  name: "test_simple_prompt",
  description: "A prompt with no arguments",
  get: () => "This is a simple prompt for testing.",
});
const promptWithArguments = prompt({
  name: "test_prompt_with_arguments",
  description: "A prompt with two required arguments",
  arguments: v.object({
    arg1: v.pipe(v.string(), v.description("First test argument")),
    arg2: v.pipe(v.string(), v.description("Second test argument")),
  }),
  complete: { arg1: (value) => ["paris", "park", "party"].filter((x) => x.startsWith(value)) },
  get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
});
const promptWithResource = prompt({
  name: "test_prompt_with_embedded_resource",
  description: "A prompt embedding a resource",
  arguments: v.object({ resourceUri: v.pipe(v.string(), v.description("URI of the resource to embed")) }),
  get: ({ resourceUri }) => [
    {
      role: "user",
      content: embeddedResource({
        uri: resourceUri,
        mimeType: "text/plain",
        text: "Embedded resource content for testing.",
      }),
    },
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

/** The text of a sampling answer (a single block, or the first text block of a list). */
function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  const t = blocks.find((b) => (b as { type?: unknown })?.type === "text") as { text?: string } | undefined;
  return t?.text ?? "";
}

// Legacy eras: server → client requests (tools-call-sampling, tools-call-elicitation, SEP-1034, SEP-1330).
const sampling = tool({
  name: "test_sampling",
  description: "Asks the client's model",
  input: v.object({ prompt: v.string() }),
  run: async ({ prompt }, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: textContent(prompt) }], maxTokens: 100 });
    return `LLM response: ${textOf(r.content)}`;
  },
});

const elicit = tool({
  name: "test_elicitation",
  description: "Asks the user for a username and an email address",
  input: v.object({ message: v.string() }),
  run: async ({ message }, ctx) => {
    const r = await ctx.elicit({
      message,
      schema: v.object({
        username: v.pipe(v.string(), v.description("User's response")),
        email: v.pipe(v.string(), v.description("User's email address")),
      }),
    });
    return `User response: <action: ${r.action}, content: ${JSON.stringify(r.content ?? {})}>`;
  },
});

const defaults = tool({
  name: "test_elicitation_sep1034_defaults",
  description: "Elicitation with a default for every primitive kind (SEP-1034)",
  run: async (_args, ctx) => {
    const r = await ctx.elicit({
      message: "Please review and update the form fields with defaults",
      schema: v.object({
        name: v.optional(v.string(), "John Doe"),
        age: v.optional(v.pipe(v.number(), v.integer()), 30),
        score: v.optional(v.number(), 95.5),
        status: v.optional(v.picklist(["active", "inactive", "pending"]), "active"),
        verified: v.optional(v.boolean(), true),
      }),
    });
    return `Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
  },
});

const titled = <T extends string>(value: T, title: string) => v.pipe(v.literal(value), v.title(title));
const enums = tool({
  name: "test_elicitation_sep1330_enums",
  description: "Elicitation with the five enum variants (SEP-1330)",
  run: async (_args, ctx) => {
    const r = await ctx.elicit({
      message: "Please select options from the enum fields",
      schema: v.object({
        untitledSingle: v.optional(v.picklist(["option1", "option2", "option3"])),
        titledSingle: v.optional(
          v.union([
            titled("value1", "First Option"),
            titled("value2", "Second Option"),
            titled("value3", "Third Option"),
          ]),
        ),
        legacyEnum: v.optional(
          v.pipe(
            v.picklist(["opt1", "opt2", "opt3"]),
            v.metadata({ enumNames: ["Option One", "Option Two", "Option Three"] }),
          ),
        ),
        untitledMulti: v.optional(v.array(v.picklist(["option1", "option2", "option3"]))),
        titledMulti: v.optional(
          v.array(
            v.union([
              titled("value1", "First Choice"),
              titled("value2", "Second Choice"),
              titled("value3", "Third Choice"),
            ]),
          ),
        ),
      }),
    });
    return `Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`;
  },
});

// 2026-07-28: the same ctx API, answered through input_required rounds (the input-required-result-* scenarios).
const irElicitation = tool({
  name: "test_input_required_result_elicitation",
  description: "Asks for a name (key user_name)",
  run: async (_args, ctx) => {
    const r = await ctx.elicit({
      key: "user_name",
      message: "What is your name?",
      schema: v.object({ name: v.string() }),
    });
    return r.action === "accept" ? `Hello, ${r.content.name}!` : `No name (${r.action})`;
  },
});

const irSampling = tool({
  name: "test_input_required_result_sampling",
  description: "Asks the model for the capital of France (key capital_question)",
  run: async (_args, ctx) => {
    const r = await ctx.sample({
      key: "capital_question",
      messages: [{ role: "user", content: textContent("What is the capital of France?") }],
      maxTokens: 100,
    });
    return `The model said: ${textOf(r.content)}`;
  },
});

const irRoots = tool({
  name: "test_input_required_result_list_roots",
  description: "Lists the client's roots (key client_roots)",
  run: async (_args, ctx) => {
    const roots = await ctx.roots({ key: "client_roots" });
    return `Roots: ${roots.map((r) => r.uri).join(", ") || "(none)"}`;
  },
});

const irState = tool({
  name: "test_input_required_result_request_state",
  description: "Asks for a confirmation; the retry's requestState is verified before the tool runs again",
  run: async (_args, ctx) => {
    const r = await ctx.elicit({ key: "confirm", message: "Please confirm", schema: v.object({ ok: v.boolean() }) });
    // Reached only on a retry whose requestState passed the server's HMAC and binding checks.
    return `state-ok: ${r.action === "accept" && r.content.ok ? "confirmed" : "not confirmed"}`;
  },
});

const irMultiple = tool({
  name: "test_input_required_result_multiple_inputs",
  description: "Asks for a name, a greeting and the roots at once",
  run: async (_args, ctx) => {
    const [name, greeting, roots] = await Promise.all([
      ctx.elicit({ key: "user_name", message: "What is your name?", schema: v.object({ name: v.string() }) }),
      ctx.sample({
        key: "greeting",
        messages: [{ role: "user", content: textContent("Generate a greeting") }],
        maxTokens: 50,
      }),
      ctx.roots({ key: "client_roots" }),
    ]);
    return `${textOf(greeting.content)} ${name.action === "accept" ? name.content.name : "stranger"} (${roots.length} roots)`;
  },
});

const irMultiRound = tool({
  name: "test_input_required_result_multi_round",
  description: "Asks for a name, then a colour",
  run: async (_args, ctx) => {
    const a = await ctx.elicit({
      key: "step1",
      message: "Step 1: What is your name?",
      schema: v.object({ name: v.string() }),
    });
    const b = await ctx.elicit({
      key: "step2",
      message: "Step 2: What is your favorite color?",
      schema: v.object({ color: v.string() }),
    });
    return `${a.content?.name ?? "?"} likes ${b.content?.color ?? "?"}`;
  },
});

const irTampered = tool({
  name: "test_input_required_result_tampered_state",
  description: "Asks for a confirmation; a tampered requestState is refused with -32602",
  run: async (_args, ctx) => {
    const r = await ctx.elicit({ key: "confirm", message: "Please confirm", schema: v.object({ ok: v.boolean() }) });
    return `confirmed: ${r.action}`;
  },
});

const irCapabilities = tool({
  name: "test_input_required_result_capabilities",
  description: "Asks only for what the client declared: elicitation, else sampling",
  run: async (_args, ctx) => {
    try {
      const r = await ctx.elicit({ message: "What is your name?", schema: v.object({ name: v.string() }) });
      return `elicited: ${r.action}`;
    } catch (e) {
      if (!(e instanceof AskError) || e.code !== "unsupported") throw e;
    }
    const s = await ctx.sample({
      messages: [{ role: "user", content: textContent("What is your name?") }],
      maxTokens: 20,
    });
    return `sampled: ${textOf(s.content)}`;
  },
});

// server-stateless: at 2026-07-28 its ask is an input_required result, never a request on the response stream.
const streamingElicitation = tool({
  name: "test_streaming_elicitation",
  description: "Elicits: legacy, a server → client request; 2026-07-28, an input_required result",
  run: async (_args, ctx) => {
    const r = await ctx.elicit({ message: "Anything to add?", schema: v.object({ note: v.optional(v.string()) }) });
    return `elicited: ${r.action}`;
  },
});

// server-stateless: a tool that needs sampling, called without it, is refused with -32021.
const missingCapability = tool({
  name: "test_missing_capability",
  description: "Needs the client's sampling capability",
  run: async (_args, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: textContent("ping") }], maxTokens: 5 });
    return textOf(r.content);
  },
});

// input-required-result-non-tool-request: prompts/get asks through the same ctx API.
const irPrompt = prompt({
  name: "test_input_required_result_prompt",
  description: "Asks what context the prompt should use",
  get: async (_args, ctx) => {
    const r = await ctx.elicit({
      key: "user_context",
      message: "What context should the prompt use?",
      schema: v.object({ context: v.string() }),
    });
    return `Use this context: ${r.action === "accept" ? r.content.context : "(none)"}`;
  },
});

await serve({
  name: "mcpbin-conformance",
  version: "1.0.0",
  instructions: "The conformance suite's reference tools.",
  tools: [
    simpleText,
    image,
    audio,
    embedded,
    mixed,
    error,
    progress,
    jsonSchema202012,
    logging,
    toolWithLogging,
    streamingElicitation,
    sampling,
    elicit,
    defaults,
    enums,
    irElicitation,
    irSampling,
    irRoots,
    irState,
    irMultiple,
    irMultiRound,
    irTampered,
    irCapabilities,
    missingCapability,
    ...TASK_TOOLS,
  ],
  resources: [staticText, staticBinary, watched, template],
  prompts: [simplePrompt, promptWithArguments, promptWithResource, promptWithImage, irPrompt],
  // Agent Skills served over MCP (the skills extension): every file of ./skills embedded by mcpbin build.
  skills: ["./skills"],
});
