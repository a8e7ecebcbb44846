/** @module A tool's record of its schemas: as given, what a schema function returned (called on first use), and the texts recorded at build time. */
import type { JsonSchema } from "../schema/json-schema.ts";
import { resolved } from "./schema-kind.ts";
import type { AnySchema, Tool } from "./types.ts";

/** Where a tool keeps the resolvers of its valibot schemas (the function form is called on first use). */
export const SCHEMAS = Symbol("mcpbin.schemas");
/** One tool's schemas (made by `tool()`, src/tools/define.ts). */
export interface ToolSchemas {
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
  /** The recorded texts, parsed on first read; or the schemas themselves when not recorded. */
  inputParsed: JsonSchema | undefined;
  outputParsed: JsonSchema | undefined;
  /**
   * In an executable, the definition's number (`nextDefinition` in src/tools/recorded.ts; -1 until it is
   * counted) until its recorded texts are looked up, on the first read of a schema; undefined once they
   * are (or from source).
   */
  pending: number | undefined;
}

/** The tool's valibot schema, calling the function form once (checked to be a schema); undefined when it has none. */
export function resolveSchema(s: ToolSchemas, what: "input" | "output"): AnySchema {
  if (what === "input") return (s.inputValue ??= resolved(s.name, "input", s.input!));
  return (s.outputValue ??= resolved(s.name, "output", s.output!));
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
