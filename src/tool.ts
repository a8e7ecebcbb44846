/** @module tool(): a tool's definition, name rules, and its JSON Schemas computed once at definition. */
import * as v from "valibot";
import { findUnconvertible, normalizeJsonSchema, normalizeRawSchema, valibotToJsonSchema, type JsonSchema } from "./schema.ts";
import { isStandardSchema, standardFingerprint, standardToJsonSchema, standardValidate, vendorOf, type StandardOutput, type StandardSchemaV1 } from "./standard-schema.ts";
import type { RequestId } from "./protocol/jsonrpc.ts";
import type { LoggingLevel } from "./protocol/logging.ts";
import type { Asker } from "./ask/types.ts";
import { NO_CLIENT } from "./ask/none.ts";
import { resolveToolUi, type ToolUi, type ToolUiOption } from "./apps/tool-ui.ts";

/** The server a tool runs in, as `ctx.server` (createServer()'s McpServer). */
export interface ServerHandle {
  readonly name: string;
  readonly version: string;
  /** The tools served now, by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  addTool(t: Tool): void;
  removeTool(name: string): boolean;
  enableTool(name: string, enabled?: boolean): void;
}

/**
 * What a tool's `run` receives besides its arguments, including the ways to ask the client
 * ({@link Asker}: `elicit`, `sample`, `roots`, `clientCapabilities`; README "Tools that ask").
 */
export interface ToolContext extends Asker {
  /** The caller (undefined when called directly): legacy from `initialize`, 2026-07-28 from the request's `_meta`. */
  readonly client?: { readonly name?: string; readonly version?: string; readonly info?: Readonly<Record<string, unknown>>; readonly capabilities: Readonly<Record<string, unknown>> };
  /** The legacy HTTP session (Mcp-Session-Id), when there is one. */
  readonly session?: { readonly id: string };
  /** The HTTP request's headers, over HTTP only. */
  readonly http?: { readonly headers: Headers };
  /** The bearer token that admitted the request, when there was one. */
  readonly auth?: { readonly token: string };
  /** The server (undefined when called directly). */
  readonly server?: ServerHandle;
  /** Aborted when the client cancels the request, the call times out, or the server shuts down. */
  readonly signal: AbortSignal;
  /**
   * Reports progress (MCP basic/utilities/progress): sends `notifications/progress` when the request
   * carried a `progressToken`, otherwise does nothing. `progress` should increase with each call.
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Sends a log message (MCP server/utilities/logging, `notifications/message`) when the client asked
   * for this level (legacy `logging/setLevel`, 2026-07-28 the request's `_meta` logLevel); otherwise,
   * and when called directly, does nothing.
   * @param level - `debug`, `info`, `notice`, `warning`, `error`, `critical`, `alert` or `emergency`.
   * @param data - any JSON value.
   * @param logger - the logger's name, optional.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** The JSON-RPC id of the request being served (undefined when called directly). */
  readonly requestId?: RequestId;
  /** The protocol version in force for this request (undefined when called directly). */
  readonly protocolVersion?: string;
}

/** Hints about a tool's behaviour (MCP ToolAnnotations); untrusted by clients. Sent from 2025-03-26. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** An icon for display (MCP Icon, 2025-11-25+). */
export interface ToolIcon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: "light" | "dark";
}

/** A valibot schema, or any Standard Schema v1 value (zod 4, arktype, …). */
type AnySchema = v.GenericSchema | StandardSchemaV1;
type ArgsOf<I> = I extends v.GenericSchema ? v.InferOutput<I> : I extends StandardSchemaV1 ? StandardOutput<I> : Record<string, unknown>;

/** True for a valibot schema (the documented default kind). */
function isValibot(x: unknown): x is v.GenericSchema {
  return typeof x === "object" && x !== null && (x as { kind?: unknown }).kind === "schema" && typeof (x as { "~run"?: unknown })["~run"] === "function";
}

/** True for the function form of `input`/`output` (a function returning the schema); an arktype type is a function too, but a schema. */
function isSchemaFunction(x: unknown): x is () => AnySchema {
  return typeof x === "function" && !isStandardSchema(x);
}

/**
 * What `tool()` takes. Give `input` (a valibot schema, or any Standard Schema v1 such as zod 4 or arktype)
 * or `inputSchema` (raw JSON Schema), or neither for no arguments.
 */
export interface ToolDefinition<I extends AnySchema | undefined = undefined, R = unknown> {
  /** `^[A-Za-z0-9_-]{1,64}$`: the set every major client accepts. */
  readonly name: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description: string;
  /**
   * A valibot object schema; converted to JSON Schema once, and used to parse arguments before `run`.
   * Any other Standard Schema v1 (zod 4's `z.object`, arktype's `type({...})`) works the same way: it
   * validates through `~standard.validate` and is converted by its library's own converter
   * (`~standard.jsonSchema`, zod's `toJSONSchema`, arktype's `toJsonSchema`); a synchronous one (an async
   * refinement gives an isError result when called by a client).
   * Or a function returning it, called once, when first needed: in an executable built by
   * `mcpbin build` (its JSON Schema recorded at build time) that is the tool's first call, so a server
   * with hundreds of tools does not build their schemas at start (docs/benchmarks.md). The function
   * must return the same schema on every run (not one that depends on the environment).
   */
  readonly input?: I | (() => I);
  /** A complete JSON Schema (object root) sent unchanged; arguments are validated against it. */
  readonly inputSchema?: JsonSchema;
  /** A valibot (or other Standard Schema) schema of the structured result; the return value becomes `structuredContent`. Or a function returning it, as for `input`. */
  readonly output?: AnySchema | (() => AnySchema);
  /** A raw JSON Schema of the structured result. */
  readonly outputSchema?: JsonSchema;
  /**
   * Send the raw `inputSchema`/`outputSchema` exactly as written (`$schema`, `$defs`, `$anchor` kept)
   * instead of normalized; for suites and clients that want them verbatim. They are still checked
   * at definition, and arguments and results are validated the same way. Default false.
   */
  readonly verbatimSchemas?: boolean;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly ToolIcon[];
  /** Sent as the tool's `_meta` (2025-06-18+). */
  readonly meta?: Record<string, unknown>;
  /**
   * Per-tool time limit per call, in milliseconds (at most 2147483647); overrides the server's
   * `timeoutMs` either way. 0 = no limit for this tool, even under a server-wide limit.
   */
  readonly timeoutMs?: number;
  /**
   * The MCP App the tool renders in (`app()`), or `{ app, visibility }`; `visibility: ["app"]` makes a
   * tool only the view calls (MCP Apps `_meta.ui`, extension io.modelcontextprotocol/ui).
   */
  readonly ui?: ToolUiOption;
  /** The tool itself; sync or async. Return an ordinary value, or `toolResult(...)`. */
  run(args: ArgsOf<I>, ctx: ToolContext): R | Promise<R>;
}

/** Where a tool came from (set by the loader; never sent to clients). */
export interface ToolSource {
  readonly dir: string;
  readonly file: string;
}

const TOOL = Symbol.for("mcpbin.tool");

/** A defined tool: an ordinary async function plus its definition. */
export interface Tool<I extends AnySchema | undefined = AnySchema | undefined, R = unknown> {
  /**
   * Validates `args` like the server does and returns what `run` returns.
   * @throws ToolArgumentsError when the arguments do not match the input schema.
   */
  (args?: unknown, ctx?: Partial<ToolContext>): Promise<R>;
  readonly [TOOL]: true;
  readonly name: string;
  readonly definition: ToolDefinition<I, R>;
  /** The JSON Schema sent as `inputSchema`. */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema sent as `outputSchema`, when the tool declares one. */
  readonly outputSchema?: JsonSchema;
  /** Provenance, set by the loader. */
  source?: ToolSource;
  /** The MCP App link from the `ui` option, resolved. */
  readonly ui?: ToolUi;
}

/** A tool author's mistake, found at definition; the message names the tool and what to change. */
export class ToolDefinitionError extends Error {
  readonly code = "TOOL_DEFINITION";
  constructor(message: string) {
    super(message);
    this.name = "ToolDefinitionError";
  }
}

/** Arguments that do not match a tool's input schema (thrown by a direct call). */
export class ToolArgumentsError extends Error {
  readonly code = "TOOL_ARGUMENTS";
  /** @param issues - one `path: message` line per problem. */
  constructor(
    readonly tool: string,
    readonly issues: readonly string[],
  ) {
    super(`Invalid arguments for tool ${tool}:\n${issues.join("\n")}`);
    this.name = "ToolArgumentsError";
  }
}

/** The names every major client and model API accepts (stricter than the spec's guidance). */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const EMPTY_INPUT: JsonSchema = Object.freeze({ type: "object", properties: {} }) as JsonSchema;

/** What to write instead of a valibot type JSON Schema has no word for. */
const HINTS: Record<string, string> = {
  date: "accept an ISO 8601 string instead, e.g. v.pipe(v.string(), v.isoTimestamp())",
  bigint: "accept a decimal string (v.pipe(v.string(), v.digits())) or a number instead",
  map: "use v.record(v.string(), …) instead",
  set: "use v.array(…) instead",
};

/** Where `mcpbin build` leaves the JSON Schemas it converted at build time (src/build/precompute.ts): key → the schema's JSON text. */
const PRECOMPUTED = Symbol.for("mcpbin.schemas");
/** Set while `mcpbin build` records conversions. */
const RECORDING = Symbol.for("mcpbin.schemas.record");

/** How many tools of each name this process has defined so far (a recorded schema belongs to one definition). */
const definitions = new Map<string, number>();

/** Forgets the definition counts of {@link precomputedKey}: for tests that record and replay definitions in one process (internal). */
export function resetDefinitionCounts(): void {
  definitions.clear();
}

/**
 * The key of one recorded conversion: the tool's name, which definition of that name it is (in the order
 * the program defines them, the same at build time and at run time), input/output, and for a schema given
 * directly its type and top-level fields with their types, so a stale record misses instead of lying. A
 * schema function is keyed without the fingerprint: it is not called before it is needed.
 */
function precomputedKey(toolName: string, nth: number, what: string, given: AnySchema | (() => AnySchema)): string {
  const head = `${toolName}\u0000${nth}\u0000${what}`;
  if (isSchemaFunction(given)) return `${head}\u0000()`;
  if (!isValibot(given)) return `${head}\u0000${standardFingerprint(given)}`;
  const entries = (given as { entries?: Record<string, v.GenericSchema> }).entries;
  let fields = "";
  if (entries) for (const k in entries) fields += `${k}:${entries[k]!.type},`;
  return `${head}\u0000${given.type}\u0000${fields}`;
}

/**
 * The JSON Schema of a valibot schema given directly or as a function ({@link ToolDefinition.input}):
 * its text as recorded at build time when there is one (nothing is converted or parsed here, and the
 * function is not called), else the converted schema (recorded when `mcpbin build` is recording).
 * The input's converted schema gets its object root checked ({@link objectRoot}) before it is recorded.
 * @returns the recorded JSON text (a string), or the converted schema (an object).
 */
function jsonSchemaOf(s: ToolSchemas, nth: number, what: "input" | "output"): string | JsonSchema {
  const g = globalThis as Record<symbol, unknown>;
  const store = g[PRECOMPUTED] as Map<string, unknown> | undefined;
  const given = s[what]!;
  const key = store ? precomputedKey(s.name, nth, what, given) : "";
  const hit = store?.get(key);
  if (typeof hit === "string") return hit;
  const converted = convert(s.name, what, resolveSchema(s, what));
  const schema = what === "input" ? objectRoot(s.name, "input", converted) : converted;
  if (store && g[RECORDING] === true) store.set(key, JSON.stringify(schema));
  return schema;
}

function convert(toolName: string, what: "input" | "output", schema: AnySchema): JsonSchema {
  if (!isValibot(schema)) return convertStandard(toolName, what, schema);
  try {
    return valibotToJsonSchema(schema, what);
  } catch (e) {
    const message = String((e as Error).message);
    const m = /The "([^"]+)" (schema|action)/.exec(message);
    const type = m?.[1];
    const field = type ? findUnconvertible(schema, type) : undefined;
    const hint =
      m?.[2] === "action"
        ? `end the pipe with a schema of the result type, e.g. v.pipe(v.string(), v.transform(Number), v.number())`
        : (type && HINTS[type]) ?? `use a JSON type there`;
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema${field ? ` field "${field}"` : ""} cannot be expressed in JSON Schema` +
        `${type ? ` (v.${camel(type)}())` : ` (${message})`}: ${hint}, or pass a raw ${what}Schema.`,
    );
  }
}

/** A Standard Schema's JSON Schema by its library's converter, normalized like a valibot one. */
function convertStandard(toolName: string, what: "input" | "output", schema: StandardSchemaV1): JsonSchema {
  const vendor = vendorOf(schema);
  let converted: JsonSchema | undefined;
  try {
    converted = standardToJsonSchema(schema, what);
  } catch (e) {
    const message = String((e as Error)?.message ?? e).replace(/\s+/g, " ").trim();
    throw new ToolDefinitionError(`tool "${toolName}": the ${what} schema (${vendor}) cannot be expressed in JSON Schema (${message}): use a JSON type there, or pass a raw ${what}Schema.`);
  }
  if (typeof converted !== "object" || converted === null) {
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema is a Standard Schema from "${vendor}" without a JSON Schema converter (~standard.jsonSchema, toJSONSchema() or toJsonSchema()): use valibot, zod 4 or arktype, or pass a raw ${what}Schema`,
    );
  }
  try {
    return normalizeJsonSchema(converted);
  } catch (e) {
    throw new ToolDefinitionError(`tool "${toolName}": the ${what} schema (${vendor}) converted to a JSON Schema mcpbin cannot send: ${(e as Error).message}`);
  }
}

function camel(type: string): string {
  return type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

function objectRoot(toolName: string, what: string, s: JsonSchema): JsonSchema {
  if (s.type !== "object") {
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} schema must be an object at its root (MCP Tool.${what}Schema has "type": "object"); ` +
        `use v.object({...}) (or v.strictObject/v.looseObject) and put alternatives inside a field`,
    );
  }
  return s.properties === undefined ? { ...s, properties: {} } : s;
}

/** The schema to advertise: the normalized one, or with `verbatimSchemas` the author's own (validated through the normalized copy). */
function sent(def: { verbatimSchemas?: boolean }, normalized: JsonSchema, original: JsonSchema): JsonSchema {
  if (!def.verbatimSchemas) return normalized;
  validationCopy.set(original, normalized);
  return original;
}

function raw(toolName: string, what: string, s: JsonSchema): JsonSchema {
  try {
    return normalizeRawSchema(s);
  } catch (e) {
    throw new ToolDefinitionError(`tool "${toolName}": ${what}Schema: ${(e as Error).message}`);
  }
}

/**
 * Defines a tool (MCP server/tools). The JSON Schemas are computed here, once.
 * @param def - see {@link ToolDefinition}.
 * @returns a {@link Tool}: callable directly (`await t(args)`) and servable by `serve()`.
 * @throws ToolDefinitionError on a bad name, both `input` and `inputSchema`, a non-object input
 *   root, a schema that cannot be converted (naming the field), a missing `run`, or a `timeoutMs`
 *   outside 0 (no limit) … 2147483647 ms.
 */
export function tool<I extends AnySchema | undefined = undefined, R = unknown>(def: ToolDefinition<I, R>): Tool<I, R> {
  const name = (def as { name?: unknown })?.name;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    throw new ToolDefinitionError(
      `tool name ${JSON.stringify(name)} is not accepted: use 1-64 characters from A-Z a-z 0-9 _ - (no dots, slashes or spaces); put a display name in "title"`,
    );
  }
  if (typeof def.run !== "function") throw new ToolDefinitionError(`tool "${name}": "run" must be a function`);
  if (typeof def.description !== "string") throw new ToolDefinitionError(`tool "${name}": "description" must be a string`);
  if (def.input && def.inputSchema) throw new ToolDefinitionError(`tool "${name}": give "input" (valibot) or "inputSchema" (JSON Schema), not both`);
  if (def.output && def.outputSchema) throw new ToolDefinitionError(`tool "${name}": give "output" (valibot) or "outputSchema" (JSON Schema), not both`);
  checkSchemaValue(name, "input", def.input);
  checkSchemaValue(name, "output", def.output);
  if (def.timeoutMs !== undefined && !(typeof def.timeoutMs === "number" && def.timeoutMs >= 0 && def.timeoutMs <= 2_147_483_647)) {
    throw new ToolDefinitionError(
      `tool "${name}": timeoutMs must be a number of milliseconds from 0 (no limit) to 2147483647 (a longer timer would fire at once); got ${typeof def.timeoutMs === "number" ? def.timeoutMs : JSON.stringify(def.timeoutMs)}`,
    );
  }
  const ui = def.ui === undefined ? undefined : resolveToolUi(name, def.ui);
  const nth = definitions.get(name) ?? 0;
  definitions.set(name, nth + 1);
  // One record per tool: what it was given, what the schema functions returned, the recorded texts.
  const schemas: ToolSchemas = { name, input: def.input as ToolSchemas["input"], output: def.output, inputValue: undefined, outputValue: undefined, inputText: undefined, outputText: undefined };
  // A schema recorded at build time stays JSON text: parsed only if read (tools/list splices the text).
  let inputSchema: JsonSchema | undefined = EMPTY_INPUT;
  if (def.input) {
    const r = jsonSchemaOf(schemas, nth, "input");
    if (typeof r === "string") {
      inputSchema = undefined;
      schemas.inputText = r;
    } else inputSchema = r;
  } else if (def.inputSchema) inputSchema = sent(def, objectRoot(name, "input", raw(name, "input", def.inputSchema)), def.inputSchema);
  let outputSchema: JsonSchema | undefined;
  if (def.output) {
    const r = jsonSchemaOf(schemas, nth, "output");
    if (typeof r === "string") schemas.outputText = r;
    else outputSchema = r;
  } else if (def.outputSchema) outputSchema = sent(def, raw(name, "output", def.outputSchema), def.outputSchema);

  // Named by its computed key: the function's `name` is the tool's, without a defineProperty per tool.
  const call = { [name]: async (args?: unknown, ctx?: Partial<ToolContext>): Promise<R> => {
    if (!Ajv2020 && usesJsonSchemaValidation(t)) await loadAjv();
    const input = def.input === undefined ? undefined : inputOf(t);
    // A direct call can wait for a Standard Schema that validates asynchronously.
    const parsed = input && !isValibot(input) ? await standardValidate(input, args ?? {}) : parseArguments(t, args ?? {});
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
  } }[name]!;
  const t = call as unknown as Tool<I, R> & { [TOOL]: true; [SCHEMAS]: ToolSchemas; definition: ToolDefinition<I, R>; inputSchema?: JsonSchema; outputSchema?: JsonSchema; ui?: ToolUi };
  t[TOOL] = true;
  if (ui) t.ui = ui;
  t.definition = def;
  t[SCHEMAS] = schemas;
  if (schemas.inputText === undefined && schemas.outputText === undefined) {
    t.inputSchema = inputSchema!;
    t.outputSchema = outputSchema;
  } else {
    // Recorded schemas are read through RECORDED's getters (a text is parsed on first read, then kept).
    schemas.inputParsed = inputSchema;
    schemas.outputParsed = outputSchema;
    Object.setPrototypeOf(t, RECORDED);
  }
  // Start loading Ajv now, so it is there by the first call (the dispatcher still waits for it if not).
  if (usesJsonSchemaValidation(t)) loadAjv().catch(() => {});
  return t;
}

/** What `input`/`output` may be, said in one line for the errors below. */
const SCHEMA_KINDS = "a valibot schema (v.object({...})), a Standard Schema such as zod 4's z.object({...}) or arktype's type({...}), or a function returning one";

/** Refuses an `input`/`output` that is neither a schema nor a function returning one. */
function checkSchemaValue(toolName: string, what: "input" | "output", given: unknown): void {
  if (given === undefined || isValibot(given) || isStandardSchema(given) || typeof given === "function") return;
  throw new ToolDefinitionError(`tool "${toolName}": "${what}" must be ${SCHEMA_KINDS}; got ${describe(given)}`);
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (typeof x === "object") {
    // The official SDK's raw shape, { a: z.string() }: an object of schemas, not a schema.
    const values = Object.values(x as Record<string, unknown>);
    if (values.length > 0 && values.every((s) => isStandardSchema(s) || (typeof s === "object" && s !== null && ("_def" in s || "_zod" in s)))) {
      return "an object of schemas, like the MCP SDK's zod shape { a: z.string() }: wrap it, z.object({...}) (zod 4) or v.object({...}) (valibot)";
    }
    return "a plain object (a raw JSON Schema goes in \"inputSchema\"/\"outputSchema\")";
  }
  return typeof x;
}

/** The schema a definition gives, calling the function form; checked to be a schema. */
function resolved(toolName: string, what: "input" | "output", given: AnySchema | (() => AnySchema)): AnySchema {
  if (!isSchemaFunction(given)) return given;
  let s: unknown;
  try {
    s = given();
  } catch (e) {
    throw new ToolDefinitionError(`tool "${toolName}": the ${what} function threw: ${(e as Error)?.message ?? e}`);
  }
  if (!isValibot(s) && !isStandardSchema(s)) {
    throw new ToolDefinitionError(`tool "${toolName}": the ${what} function must return a valibot schema (or another Standard Schema), e.g. () => v.object({...}); got ${s === null ? "null" : typeof s}`);
  }
  return s as AnySchema;
}

/** Where a tool keeps the resolvers of its valibot schemas (the function form is called on first use). */
const SCHEMAS = Symbol("mcpbin.schemas");
interface ToolSchemas {
  readonly name: string;
  /** The valibot schemas as given: a schema, or a function returning one. */
  readonly input: AnySchema | (() => AnySchema) | undefined;
  readonly output: AnySchema | (() => AnySchema) | undefined;
  /** What the functions returned, once called. */
  inputValue: AnySchema | undefined;
  outputValue: AnySchema | undefined;
  /** The JSON Schemas' text, when recorded at build time. */
  inputText: string | undefined;
  outputText: string | undefined;
  /** The recorded texts, parsed on first read. */
  inputParsed?: JsonSchema;
  outputParsed?: JsonSchema;
}

/**
 * The prototype of a tool with a JSON Schema recorded at build time: `inputSchema`/`outputSchema` parse
 * the recorded text on first read (kept in the tool's record), so a start parses nothing.
 */
const RECORDED: object = Object.create(Function.prototype, {
  inputSchema: {
    get(this: { [SCHEMAS]: ToolSchemas }) {
      const s = this[SCHEMAS];
      return (s.inputParsed ??= JSON.parse(s.inputText!) as JsonSchema);
    },
  },
  outputSchema: {
    get(this: { [SCHEMAS]: ToolSchemas }) {
      const s = this[SCHEMAS];
      return s.outputText === undefined ? s.outputParsed : (s.outputParsed ??= JSON.parse(s.outputText) as JsonSchema);
    },
  },
});

/** The tool's valibot schema, calling the function form once (checked to be a schema); undefined when it has none. */
function resolveSchema(s: ToolSchemas, what: "input" | "output"): AnySchema {
  if (what === "input") return (s.inputValue ??= resolved(s.name, "input", s.input!));
  return (s.outputValue ??= resolved(s.name, "output", s.output!));
}

/**
 * The JSON text of the tool's input and output JSON Schemas as recorded by `mcpbin build`, where they
 * were (a tools/list result splices them in without parsing them).
 */
export function recordedSchemaTexts(t: Tool): { readonly input?: string; readonly output?: string } {
  const r = (t as unknown as { [SCHEMAS]: ToolSchemas })[SCHEMAS];
  return { input: r.inputText, output: r.outputText };
}

/** The tool's valibot input schema (calling the function form once), or undefined. */
export function inputOf(t: Tool): AnySchema | undefined {
  const s = (t as unknown as { [SCHEMAS]: ToolSchemas })[SCHEMAS];
  return s.input === undefined ? undefined : resolveSchema(s, "input");
}

/** The tool's valibot output schema (calling the function form once), or undefined. */
export function outputOf(t: Tool): AnySchema | undefined {
  const s = (t as unknown as { [SCHEMAS]: ToolSchemas })[SCHEMAS];
  return s.output === undefined ? undefined : resolveSchema(s, "output");
}

/** True for values made by {@link tool}. */
export function isTool(x: unknown): x is Tool {
  return typeof x === "function" && TOOL in x;
}

/** Parsed arguments, or the problems as `path: message` lines. */
export type ParsedArguments = { ok: true; value: unknown } | { ok: false; issues: string[] };

/**
 * Validates arguments against the tool's input schema (valibot `input`, else the raw `inputSchema`
 * via Ajv against the normalized schema clients see, else "no arguments": any object is accepted).
 * @param t - the tool.
 * @param args - the `arguments` object from `tools/call`.
 * @returns the parsed value (defaults filled in, transforms applied) or the problems.
 */
export function parseArguments(t: Tool, args: unknown): ParsedArguments {
  const given = t.definition.input;
  const input = isSchemaFunction(given) ? inputOf(t) : (given as AnySchema | undefined);
  if (input) return validateWith(input, args, "input");
  if (t.definition.inputSchema) return validateJson(t.inputSchema, args);
  return { ok: true, value: args };
}

/**
 * Validates a value with a tool's schema: valibot's `safeParse`, else the Standard Schema's
 * `~standard.validate` (synchronously: a schema that answers with a Promise is reported as an issue).
 * @param schema - the tool's valibot or Standard Schema.
 * @param value - arguments or structured content.
 * @param what - which schema it is, for the message about an asynchronous one.
 * @returns the parsed value or the problems as `path: message` lines.
 */
export function validateWith(schema: AnySchema, value: unknown, what: "input" | "output"): ParsedArguments {
  if (isValibot(schema)) {
    const r = v.safeParse(schema, value);
    return r.success ? { ok: true, value: r.output } : { ok: false, issues: r.issues.map(issueLine) };
  }
  const r = standardValidate(schema, value);
  if (r instanceof Promise) {
    r.catch(() => {});
    return { ok: false, issues: [`(root): the ${what} schema (${vendorOf(schema)}) validates asynchronously (an async refinement); mcpbin validates synchronously: check that in run() instead`] };
  }
  return r;
}

/**
 * One valibot issue as `path: message` (`(root)` when the issue is about the whole value); valibot's
 * default "Invalid key" messages become `required` and `unexpected key (not in the schema)`.
 * @param issue - a valibot issue.
 * @returns the line.
 */
export function issueLine(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map((p) => p.key).join(".") || "(root)";
  // valibot's default "Invalid key" messages, said plainly (a custom message is kept as written).
  if (issue.message.startsWith("Invalid key:")) {
    if (issue.expected === "never") return `${path}: unexpected key (not in the schema)`;
    if (issue.received === "undefined") return `${path}: required`;
  }
  return `${path}: ${issue.message}`;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  params: { additionalProperty?: string; missingProperty?: string };
  message?: string;
}
type JsonValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
type AjvClass = new (options: object) => { compile(schema: object): JsonValidator };
const validators = new WeakMap<object, JsonValidator>();
let Ajv2020: AjvClass | undefined;
let ajvLoading: Promise<void> | undefined;

/**
 * True when the tool validates through Ajv: a raw `inputSchema`, or a raw `outputSchema` without a
 * valibot `output`. Such a tool can only be called once {@link loadAjv} has settled.
 */
export function usesJsonSchemaValidation(t: Tool): boolean {
  return t.definition.inputSchema !== undefined || t.definition.outputSchema !== undefined;
}

/** True once Ajv is loaded (or nothing needs it to be). */
export function ajvLoaded(): boolean {
  return Ajv2020 !== undefined;
}

/**
 * Loads Ajv, once. It is imported with `import()` so a compiled executable keeps it in a chunk of its
 * own, read only by servers whose tools use raw JSON Schemas (docs/benchmarks.md, start-up).
 * @returns resolves when {@link validateJson} can run; rejects if the module cannot be loaded.
 */
export function loadAjv(): Promise<void> {
  return (ajvLoading ??= import("ajv/dist/2020").then((m) => {
    Ajv2020 = ((m as { default: { default?: AjvClass } & AjvClass }).default.default ?? (m as { default: AjvClass }).default) as AjvClass;
  }));
}
/** Verbatim raw schemas → the normalized copy Ajv (2020-12) compiles. */
const validationCopy = new WeakMap<object, JsonSchema>();

/**
 * Validates a value against a normalized raw JSON Schema (2020-12) with Ajv, compiled once per
 * schema; Ajv is loaded only when a tool uses a raw schema ({@link loadAjv}, which must have settled).
 * @param schema - a schema made by `normalizeRawSchema` (a tool's `inputSchema`/`outputSchema`).
 * @param value - the arguments or structured content.
 * @returns the value, or the problems as `path: message` lines.
 */
export function validateJson(schema: JsonSchema, value: unknown): ParsedArguments {
  let validate = validators.get(schema);
  if (!validate) {
    if (!Ajv2020) throw new Error("internal: validateJson before loadAjv() settled");
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    validate = ajv.compile(validationCopy.get(schema) ?? schema) as JsonValidator;
    validators.set(schema, validate);
  }
  if (validate(value)) return { ok: true, value };
  return {
    ok: false,
    issues: (validate.errors ?? []).map(ajvLine),
  };
}

/** One Ajv error as `path: message`, worded like {@link issueLine} for missing and unexpected keys. */
function ajvLine(e: AjvError): string {
  const path = e.instancePath.slice(1).replaceAll("/", ".");
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (e.keyword === "required" && e.params.missingProperty !== undefined) return `${at(e.params.missingProperty)}: required`;
  if (e.keyword === "additionalProperties" && e.params.additionalProperty !== undefined) return `${at(e.params.additionalProperty)}: unexpected key (not in the schema)`;
  return `${path || "(root)"}: ${e.message ?? "is invalid"}`;
}
