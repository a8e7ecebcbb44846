/** @module tool(): checks a definition, computes its JSON Schemas once, and makes the callable tool. */
import { isScopes } from "../shared/auth.ts";
import type { JsonSchema } from "../schema/json-schema.ts";
import { standardValidate } from "../schema/standard.ts";
import type { Asker } from "../ask/types.ts";
import { NO_CLIENT } from "../ask/none.ts";
import { resolveToolUi, type ToolUi } from "../apps/tool-ui.ts";
import { TOOL_BRAND } from "../runtime/contract.ts";
import { ToolArgumentsError, ToolDefinitionError } from "./errors.ts";
import { EMPTY_INPUT, objectRoot, raw, sent } from "./json-schema.ts";
import { checkToolName } from "./name.ts";
import { deferDefinition, jsonSchemaOf, nextDefinition, RECORDED, replaying } from "./recorded.ts";
import { checkSchemaValue, isValibot } from "./schema-kind.ts";
import { inputOf, SCHEMAS, type ToolSchemas } from "./schemas.ts";
import { TOOL_KEYS, type AnySchema, type ArgsOf, type Tool, type ToolContext, type ToolDefinition } from "./types.ts";
import { unknownKey } from "../shared/option-keys.ts";
import { jsonValidationReady, loadAjv, parseArguments, usesJsonSchemaValidation } from "./validate.ts";

/**
 * Defines a tool (MCP server/tools). The JSON Schemas are computed here, once; in an executable built by
 * `mcpbin build` they were recorded at build time and are looked up on first read (tools/list) instead.
 * @param def - see {@link ToolDefinition}.
 * @returns a {@link Tool}: callable directly (`await t(args)`) and servable by `serve()`.
 * @throws ToolDefinitionError on a bad name, an unknown key (naming the allowed ones), both `input` and `inputSchema`, a non-object input
 *   root, a schema that cannot be converted (naming the field), a missing `run`, or a `timeoutMs`
 *   outside 0 (no limit) … 2147483647 ms.
 */
export function tool<I extends AnySchema | undefined = undefined, R = unknown>(def: ToolDefinition<I, R>): Tool<I, R> {
  const name = (def as { name?: unknown })?.name;
  checkToolName(name);
  const unknown = unknownKey(def, TOOL_KEYS);
  if (unknown) throw new ToolDefinitionError(`tool "${name}": ${unknown}`);
  if (typeof def.run !== "function") throw new ToolDefinitionError(`tool "${name}": "run" must be a function`);
  if (typeof def.description !== "string")
    throw new ToolDefinitionError(`tool "${name}": "description" must be a string`);
  if (def.input && def.inputSchema)
    throw new ToolDefinitionError(`tool "${name}": give "input" (valibot) or "inputSchema" (JSON Schema), not both`);
  if (def.output && def.outputSchema)
    throw new ToolDefinitionError(`tool "${name}": give "output" (valibot) or "outputSchema" (JSON Schema), not both`);
  checkSchemaValue(name, "input", def.input);
  checkSchemaValue(name, "output", def.output);
  if (
    def.timeoutMs !== undefined &&
    !(typeof def.timeoutMs === "number" && def.timeoutMs >= 0 && def.timeoutMs <= 2_147_483_647)
  ) {
    throw new ToolDefinitionError(
      `tool "${name}": timeoutMs must be a number of milliseconds from 0 (no limit) to 2147483647 (a longer timer would fire at once); got ${typeof def.timeoutMs === "number" ? def.timeoutMs : JSON.stringify(def.timeoutMs)}`,
    );
  }
  if (def.scopes !== undefined && !isScopes(def.scopes)) {
    throw new ToolDefinitionError(
      `tool "${name}": scopes must be an array of OAuth scope names (no spaces or quotes), e.g. ["files:write"]`,
    );
  }
  if (def.task !== undefined && def.task !== "forbidden" && def.task !== "optional" && def.task !== "required") {
    throw new ToolDefinitionError(
      `tool "${name}": task must be "forbidden", "optional" or "required" (MCP execution.taskSupport); got ${JSON.stringify(def.task)}`,
    );
  }
  if (def.deferTask !== undefined && typeof def.deferTask !== "boolean")
    throw new ToolDefinitionError(
      `tool "${name}": deferTask must be true or false; got ${JSON.stringify(def.deferTask)}`,
    );
  if (def.deferTask === true && (def.task ?? "forbidden") === "forbidden")
    throw new ToolDefinitionError(`tool "${name}": deferTask needs task: "optional" or "required"`);
  const ui = def.ui === undefined ? undefined : resolveToolUi(name, def.ui);
  const input = def.input as ToolSchemas["input"];
  const output = def.output;
  // In an executable the recorded JSON Schemas are looked up on first read (src/tools/recorded.ts), not here,
  // and so is the definition's number that keys them.
  const defer = (input !== undefined || output !== undefined) && replaying();
  const nth = defer ? -1 : nextDefinition(name);
  // One record per tool: what it was given, what the schema functions returned, the recorded texts.
  const schemas: ToolSchemas = {
    name,
    input,
    output,
    inputValue: undefined,
    outputValue: undefined,
    inputText: undefined,
    outputText: undefined,
    inputParsed: undefined,
    outputParsed: undefined,
    pending: defer ? -1 : undefined,
  };
  if (defer) deferDefinition(schemas);
  // A schema recorded at build time stays JSON text: parsed only if read (tools/list splices the text).
  let inputSchema: JsonSchema | undefined = EMPTY_INPUT;
  if (input !== undefined) {
    const r = defer ? undefined : jsonSchemaOf(schemas, nth, "input");
    if (typeof r === "string") schemas.inputText = r;
    inputSchema = typeof r === "string" ? undefined : r;
  } else if (def.inputSchema)
    inputSchema = sent(def, objectRoot(name, "input", raw(name, "input", def.inputSchema)), def.inputSchema);
  let outputSchema: JsonSchema | undefined;
  if (output !== undefined) {
    const r = defer ? undefined : jsonSchemaOf(schemas, nth, "output");
    if (typeof r === "string") schemas.outputText = r;
    else outputSchema = r;
  } else if (def.outputSchema) outputSchema = sent(def, raw(name, "output", def.outputSchema), def.outputSchema);

  // Named by its computed key: the function's `name` is the tool's, without a defineProperty per tool.
  const call = {
    [name]: async (args?: unknown, ctx?: Partial<ToolContext>): Promise<R> => {
      if (usesJsonSchemaValidation(t) && !jsonValidationReady(t)) await loadAjv();
      const given = def.input === undefined ? undefined : inputOf(t);
      // A direct call can wait for a Standard Schema that validates asynchronously.
      const parsed =
        given && !isValibot(given) ? await standardValidate(given, args ?? {}) : parseArguments(t, args ?? {});
      if (!parsed.ok) throw new ToolArgumentsError(name, parsed.issues);
      return await def.run(parsed.value as ArgsOf<I>, {
        signal: ctx?.signal ?? new AbortController().signal,
        progress: ctx?.progress ?? (() => {}),
        log: ctx?.log ?? (() => {}),
        requestId: ctx?.requestId,
        protocolVersion: ctx?.protocolVersion,
        elicit: ctx?.elicit ? (ctx.elicit.bind(ctx) as Asker["elicit"]) : NO_CLIENT.elicit,
        sample: ctx?.sample ? ctx.sample.bind(ctx) : NO_CLIENT.sample,
        roots: ctx?.roots ? ctx.roots.bind(ctx) : NO_CLIENT.roots,
        clientCapabilities: ctx?.clientCapabilities ?? NO_CLIENT.clientCapabilities,
      });
    },
  }[name]!;
  const t = call as unknown as Tool<I, R> & {
    [TOOL_BRAND]: true;
    [SCHEMAS]: ToolSchemas;
    definition: ToolDefinition<I, R>;
    inputSchema?: JsonSchema;
    outputSchema?: JsonSchema;
    ui?: ToolUi;
  };
  t[TOOL_BRAND] = true;
  if (ui) t.ui = ui;
  t.definition = def;
  t[SCHEMAS] = schemas;
  if (!defer && schemas.inputText === undefined && schemas.outputText === undefined) {
    t.inputSchema = inputSchema!;
    t.outputSchema = outputSchema;
  } else {
    // Recorded schemas are read through RECORDED's getters (looked up and parsed on first read, then kept).
    schemas.inputParsed = inputSchema;
    schemas.outputParsed = outputSchema;
    Object.setPrototypeOf(t, RECORDED);
  }
  // Start loading Ajv now, so it is there by the first call (the dispatcher still waits for it if not),
  // unless the executable embeds validators compiled at build time for every raw schema of the tool.
  if ((def.inputSchema !== undefined || def.outputSchema !== undefined) && !jsonValidationReady(t))
    loadAjv().catch(() => {});
  return t;
}

/** True for values made by {@link tool}. */
export function isTool(x: unknown): x is Tool {
  return typeof x === "function" && TOOL_BRAND in x;
}
