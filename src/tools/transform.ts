/** @module transformTool(): a new tool made from any tool (own, upstream, OpenAPI): renamed, redescribed, arguments reshaped, hooks around the call. */
import type { JsonSchema } from "../schema/json-schema.ts";
import { tool } from "./define.ts";
import { ToolArgumentsError, ToolDefinitionError } from "./errors.ts";
import type { Tool, ToolAnnotations, ToolContext, ToolIcon } from "./types.ts";
import { jsonValidationReady, loadAjv, parseArguments, usesJsonSchemaValidation } from "./validate.ts";

/** How one argument of the source tool is shown to clients. */
export interface ArgTransform {
  /** The name clients see (the source tool still receives its own name). */
  readonly rename?: string;
  /** A new description for the argument. */
  readonly description?: string;
  /** The value used when the client leaves the argument out (the argument becomes optional). */
  readonly default?: unknown;
  /** Leave the argument out of the advertised schema: it takes {@link value}, else {@link default}. */
  readonly hide?: boolean;
  /** For a hidden argument: its value, computed per call from the client's arguments (source names) and the context. */
  readonly value?: (args: Record<string, unknown>, ctx: ToolContext) => unknown;
}

/** What {@link transformTool} takes. Every field is optional; a field left out keeps the source tool's. */
export interface TransformOptions {
  /** The new tool's name (`^[A-Za-z0-9_-]{1,64}$`); default the source's. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  /** Replaces the source's annotations (merge them yourself to keep some). */
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly ToolIcon[];
  readonly meta?: Record<string, unknown>;
  /** Per-call time limit in milliseconds (0: none); default the source's. */
  readonly timeoutMs?: number;
  /** Per argument of the source tool, by its source name. */
  readonly args?: Readonly<Record<string, ArgTransform>>;
  /**
   * Runs before the source tool with the arguments as it will receive them (source names, defaults and
   * hidden values filled in); returns them, changed or not. A throw becomes the call's isError result.
   */
  readonly before?: (
    args: Record<string, unknown>,
    ctx: ToolContext,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Runs after the source tool with what it returned; its return value is the new tool's. */
  readonly after?: (result: unknown, args: Record<string, unknown>, ctx: ToolContext) => unknown;
}

const OPTION_KEYS = new Set([
  "name",
  "title",
  "description",
  "annotations",
  "icons",
  "meta",
  "timeoutMs",
  "args",
  "before",
  "after",
]);
const ARG_KEYS = new Set(["rename", "description", "default", "hide", "value"]);

/**
 * Makes a new tool from `source`: a new name, title, description or annotations; arguments renamed,
 * described, given defaults or hidden; `before`/`after` hooks. The advertised `inputSchema` is the source's
 * with those changes made, so it stays exact: clients see only what they may send. A call validates the
 * client's arguments against the new schema, maps them back to the source's names, fills defaults and
 * hidden values, runs `before`, validates against the source's own schema, runs the source's `run` with the
 * same context (progress, asks, signal), then `after`.
 * @param source - any tool made by tool() (yours, `upstreamTools()`'s, `openapiTools()`'s).
 * @param options - see {@link TransformOptions}.
 * @returns a new {@link Tool}; the source is unchanged and may be served beside it.
 * @throws ToolDefinitionError for an unknown option or argument, a rename that collides, a hidden
 *   required argument with neither `default` nor `value`, or anything tool() refuses (e.g. a bad name).
 */
export function transformTool(source: Tool, options: TransformOptions): Tool {
  const label = `transformTool("${source?.name}")`;
  if (typeof source !== "function" || !source.definition)
    throw new ToolDefinitionError(`${label}: the source must be a tool made by tool()`);
  for (const k of Object.keys(options ?? {})) {
    if (!OPTION_KEYS.has(k))
      throw new ToolDefinitionError(`${label}: unknown option "${k}" (allowed: ${[...OPTION_KEYS].join(", ")})`);
  }
  const schema = source.inputSchema as JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] };
  const sourceProps: Record<string, JsonSchema> = schema.properties ?? {};
  const properties: Record<string, JsonSchema> = { ...sourceProps };
  const required = new Set(schema.required ?? []);
  const specs = options.args ?? {};
  const toSource = new Map<string, string>(); // advertised name -> source name
  for (const name of Object.keys(properties)) toSource.set(name, name);
  const hidden: [string, ArgTransform][] = [];
  const defaults: [string, unknown][] = [];
  for (const [name, spec] of Object.entries(specs)) {
    if (!(name in properties)) {
      throw new ToolDefinitionError(
        `${label}: args.${name}: the tool has no argument "${name}" (its arguments: ${Object.keys(properties).join(", ") || "none"})`,
      );
    }
    for (const k of Object.keys(spec)) {
      if (!ARG_KEYS.has(k))
        throw new ToolDefinitionError(
          `${label}: args.${name}: unknown key "${k}" (allowed: ${[...ARG_KEYS].join(", ")})`,
        );
    }
    if (spec.value !== undefined && typeof spec.value !== "function")
      throw new ToolDefinitionError(`${label}: args.${name}.value must be a function (args, ctx) => value`);
    if (spec.value !== undefined && !spec.hide)
      throw new ToolDefinitionError(
        `${label}: args.${name}: "value" is for a hidden argument: add hide: true, or use "default"`,
      );
    if (spec.hide) {
      if (spec.rename !== undefined || spec.description !== undefined)
        throw new ToolDefinitionError(
          `${label}: args.${name}: a hidden argument is not shown, so "rename" and "description" do not apply`,
        );
      if (required.has(name) && !("default" in spec) && spec.value === undefined) {
        throw new ToolDefinitionError(
          `${label}: args.${name} is required by the tool and hidden: give it a "default" or a "value" function`,
        );
      }
      delete properties[name];
      required.delete(name);
      toSource.delete(name);
      hidden.push([name, spec]);
      continue;
    }
    let prop: JsonSchema = { ...(properties[name] as object) };
    if (spec.description !== undefined) prop = { ...prop, description: spec.description };
    if ("default" in spec) {
      prop = { ...prop, default: spec.default };
      required.delete(name);
      defaults.push([name, spec.default]);
    }
    properties[name] = prop;
  }
  // Renames last, so a rename onto a name another argument gives up is allowed.
  const renamed: Record<string, JsonSchema> = {};
  const newRequired: string[] = [];
  const sourceToShown = new Map<string, string>();
  for (const [name, prop] of Object.entries(properties)) {
    const shown = specs[name]?.rename ?? name;
    if (shown in renamed)
      throw new ToolDefinitionError(`${label}: two arguments would be shown as "${shown}": rename one of them`);
    renamed[shown] = prop;
    sourceToShown.set(name, shown);
    if (required.has(name)) newRequired.push(shown);
  }
  toSource.clear();
  for (const [src, shown] of sourceToShown) toSource.set(shown, src);

  const { properties: _p, required: _r, ...rest } = schema;
  const inputSchema: JsonSchema = {
    ...rest,
    type: "object",
    properties: renamed,
    ...(newRequired.length ? { required: newRequired } : {}),
  };
  const def = source.definition;

  const run = async (args: Record<string, unknown>, ctx: ToolContext): Promise<unknown> => {
    let mapped: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(args ?? {})) {
      const src = toSource.get(k);
      // A key the client may not send under that name (a hidden argument, or a renamed one's old name) is
      // dropped, so a client can never set what the author hid; other extra keys are the source schema's to judge.
      if (src !== undefined) mapped[src] = val;
      else if (!(k in sourceProps)) mapped[k] = val;
    }
    for (const [name, val] of defaults) if (mapped[name] === undefined) mapped[name] = structuredClone(val);
    for (const [name, spec] of hidden) {
      const val = spec.value ? await spec.value(mapped, ctx) : structuredClone(spec.default);
      if (val !== undefined) mapped[name] = val;
    }
    if (options.before) mapped = await options.before(mapped, ctx);
    if (usesJsonSchemaValidation(source) && !jsonValidationReady(source)) await loadAjv();
    const parsed = parseArguments(source, mapped);
    if (!parsed.ok) throw new ToolArgumentsError(source.name, parsed.issues);
    const result = await def.run(parsed.value as never, ctx);
    return options.after ? await options.after(result, mapped, ctx) : result;
  };

  const made = tool({
    name: options.name ?? source.name,
    title: options.title ?? def.title,
    description: options.description ?? def.description,
    annotations: options.annotations ?? def.annotations,
    icons: options.icons ?? def.icons,
    meta: options.meta ?? def.meta,
    timeoutMs: options.timeoutMs ?? def.timeoutMs,
    ui: def.ui,
    // What the transform does not change stays the source's: how it runs as a task, who may call it, its schemas as written.
    ...(def.task !== undefined ? { task: def.task } : {}),
    ...(def.deferTask !== undefined ? { deferTask: def.deferTask } : {}),
    ...(def.scopes !== undefined ? { scopes: def.scopes } : {}),
    ...(def.verbatimSchemas !== undefined ? { verbatimSchemas: def.verbatimSchemas } : {}),
    inputSchema,
    ...(source.outputSchema ? { outputSchema: source.outputSchema } : {}),
    run: run as never,
  }) as Tool & { received?: Readonly<Record<string, unknown>> };
  // A received tool's fields that no protocol version defines go with it.
  if (source.received !== undefined) made.received = source.received;
  return made;
}
