/** @module What a tool's `input`/`output` may be: a valibot schema, another Standard Schema, or a function returning one. */
import type * as v from "valibot";
import { isStandardSchema } from "../schema/standard.ts";
import { ToolDefinitionError } from "./errors.ts";
import type { AnySchema } from "./types.ts";

/** True for a valibot schema (the documented default kind). */
export function isValibot(x: unknown): x is v.GenericSchema {
  return (
    typeof x === "object" &&
    x !== null &&
    (x as { kind?: unknown }).kind === "schema" &&
    typeof (x as { "~run"?: unknown })["~run"] === "function"
  );
}

/** True for the function form of `input`/`output` (a function returning the schema); an arktype type is a function too, but a schema. */
export function isSchemaFunction(x: unknown): x is () => AnySchema {
  return typeof x === "function" && !isStandardSchema(x);
}

/** What `input`/`output` may be, said in one line for the errors below. */
const SCHEMA_KINDS =
  "a valibot schema (v.object({...})), a Standard Schema such as zod 4's z.object({...}) or arktype's type({...}), or a function returning one";

/** Refuses an `input`/`output` that is neither a schema nor a function returning one. */
export function checkSchemaValue(toolName: string, what: "input" | "output", given: unknown): void {
  // The function form first: a property read on a function is the slow one (it is a miss).
  if (given === undefined || typeof given === "function" || isValibot(given) || isStandardSchema(given)) return;
  throw new ToolDefinitionError(`tool "${toolName}": "${what}" must be ${SCHEMA_KINDS}; got ${describe(given)}`);
}

/** What a value given as a schema is, said for a message. */
function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (typeof x === "object") {
    // The official SDK's raw shape, { a: z.string() }: an object of schemas, not a schema.
    const values = Object.values(x as Record<string, unknown>);
    if (
      values.length > 0 &&
      values.every((s) => isStandardSchema(s) || (typeof s === "object" && s !== null && ("_def" in s || "_zod" in s)))
    ) {
      return "an object of schemas, like the MCP SDK's zod shape { a: z.string() }: wrap it, z.object({...}) (zod 4) or v.object({...}) (valibot)";
    }
    return 'a plain object (a raw JSON Schema goes in "inputSchema"/"outputSchema")';
  }
  return typeof x;
}

/** The schema a definition gives, calling the function form; checked to be a schema. */
export function resolved(toolName: string, what: "input" | "output", given: AnySchema | (() => AnySchema)): AnySchema {
  if (!isSchemaFunction(given)) return given;
  let s: unknown;
  try {
    s = given();
  } catch (e) {
    throw new ToolDefinitionError(`tool "${toolName}": the ${what} function threw: ${(e as Error)?.message ?? e}`);
  }
  if (!isValibot(s) && !isStandardSchema(s)) {
    throw new ToolDefinitionError(
      `tool "${toolName}": the ${what} function must return a valibot schema (or another Standard Schema), e.g. () => v.object({...}); got ${s === null ? "null" : typeof s}`,
    );
  }
  return s as AnySchema;
}
