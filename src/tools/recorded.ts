/** @module The build-time record and replay of tool()'s JSON Schema conversions, and the tool prototype that reads a replayed one on first use (the store is the build contract's, src/runtime/contract.ts). */
import type * as v from "valibot";
import type { JsonSchema } from "../schema/json-schema.ts";
import { standardFingerprint } from "../schema/standard.ts";
import { contract } from "../runtime/contract.ts";
import { convert, objectRoot } from "./json-schema.ts";
import { ToolDefinitionError } from "./errors.ts";
import { isSchemaFunction, isValibot } from "./schema-kind.ts";
import { resolveSchema, SCHEMAS, type ToolSchemas } from "./schemas.ts";
import type { AnySchema, Tool } from "./types.ts";

/** How many tools of each name this process has defined so far (a recorded schema belongs to one definition). */
const definitions = new Map<string, number>();

/**
 * Counts one more definition of a tool named `name` in this process.
 * @returns how many came before it (0 for the first).
 */
export function nextDefinition(name: string): number {
  if (unnumbered.length > 0) numberDeferred();
  const nth = definitions.get(name) ?? 0;
  definitions.set(name, nth + 1);
  return nth;
}

/** Definitions whose number was left to the first read of a schema ({@link deferDefinition}), in the order they were made. */
const unnumbered: ToolSchemas[] = [];

/**
 * Leaves a tool's definition number to its first schema read (a Map look-up per tool is a good part of
 * a start's per-tool cost): its place among the definitions is kept, so the numbers come out as
 * {@link nextDefinition} would have counted them. `s.pending` is -1 until then.
 */
export function deferDefinition(s: ToolSchemas): void {
  unnumbered.push(s);
}

/** Numbers the deferred definitions, in order. */
function numberDeferred(): void {
  const todo = unnumbered.splice(0);
  for (const s of todo) {
    const nth = definitions.get(s.name) ?? 0;
    definitions.set(s.name, nth + 1);
    s.pending = nth;
  }
}

/** Forgets the definition counts of {@link precomputedKey}: for tests that record and replay definitions in one process (internal). */
export function resetDefinitionCounts(): void {
  definitions.clear();
  unnumbered.length = 0;
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
export function jsonSchemaOf(s: ToolSchemas, nth: number, what: "input" | "output"): string | JsonSchema {
  const c = contract();
  const store = c.schemas;
  const given = s[what]!;
  const key = store ? precomputedKey(s.name, nth, what, given) : "";
  const hit = store?.get(key);
  if (typeof hit === "string") return hit;
  const converted = convert(s.name, what, resolveSchema(s, what));
  const schema = what === "input" ? objectRoot(s.name, "input", converted) : converted;
  if (store && c.recordSchemas === true) store.set(key, JSON.stringify(schema));
  return schema;
}

/**
 * Whether tool() leaves the look-up of its recorded JSON Schemas to their first read: in an executable,
 * whose generated entry installed the record (`contract().schemas`) and is not recording into it. Then a
 * start does no per-tool work for schemas at all (docs/benchmarks.md, "many tools"); what the look-up
 * could throw was thrown by the build's check run, which converted and recorded every schema.
 */
export function replaying(): boolean {
  return CONTRACT.schemas !== undefined && CONTRACT.recordSchemas !== true;
}

/** The process's contract record: one object for the process's life, so it is read once, not per tool. */
const CONTRACT = contract();

/**
 * Looks up a tool's recorded texts, once, when tool() deferred it ({@link replaying}): a record that
 * misses (the program defined its tools differently from the build) is converted as from source.
 * @throws ToolDefinitionError as the conversion does, on every read until it succeeds, with what to change:
 *   such a schema was never checked by `mcpbin build`, so it fails here, at the first `tools/list`, not at start.
 */
function settle(s: ToolSchemas): void {
  try {
    settleNow(s);
  } catch (e) {
    if (!(e instanceof ToolDefinitionError)) throw e;
    throw new ToolDefinitionError(
      `${e.message} (this executable's build recorded no JSON Schema for this definition of "${s.name}": the program defines ` +
        `its tools differently when it runs than in mcpbin build's check run, e.g. depending on an environment variable; ` +
        `define the same tools in both, so that the build checks them)`,
    );
  }
}

function settleNow(s: ToolSchemas): void {
  if (s.pending === -1) numberDeferred();
  const nth = s.pending!;
  if (s.input !== undefined) {
    const r = jsonSchemaOf(s, nth, "input");
    if (typeof r === "string") s.inputText = r;
    else s.inputParsed = r;
  }
  if (s.output !== undefined) {
    const r = jsonSchemaOf(s, nth, "output");
    if (typeof r === "string") s.outputText = r;
    else s.outputParsed = r;
  }
  s.pending = undefined;
}

/**
 * The prototype of a tool whose JSON Schemas are recorded at build time: `inputSchema`/`outputSchema`
 * look the record up on first read ({@link settle}) and parse the recorded text then (kept in the
 * tool's record), so a start neither looks up nor parses anything.
 */
export const RECORDED: object = Object.create(Function.prototype, {
  inputSchema: {
    get(this: { [SCHEMAS]: ToolSchemas }) {
      const s = this[SCHEMAS];
      if (s.pending !== undefined) settle(s);
      return (s.inputParsed ??= JSON.parse(s.inputText!) as JsonSchema);
    },
  },
  outputSchema: {
    get(this: { [SCHEMAS]: ToolSchemas }) {
      const s = this[SCHEMAS];
      if (s.pending !== undefined) settle(s);
      return s.outputText === undefined ? s.outputParsed : (s.outputParsed ??= JSON.parse(s.outputText) as JsonSchema);
    },
  },
});

/**
 * The JSON text of the tool's input and output JSON Schemas as recorded by `mcpbin build`, where they
 * were (a tools/list result splices them in without parsing them).
 */
export function recordedSchemaTexts(t: Tool): { readonly input?: string; readonly output?: string } {
  const s = (t as unknown as { [SCHEMAS]: ToolSchemas })[SCHEMAS];
  if (s.pending !== undefined) settle(s);
  return { input: s.inputText, output: s.outputText };
}
