/** @module prompt(): prompt templates (MCP server/prompts), their string-only argument schemas, and getting their messages. */
import { PROMPT_BRAND } from "../runtime/contract.ts";
import * as v from "valibot";
import {
  checkDisplay,
  ContentDefinitionError,
  directContext,
  type ContentContext,
  type ContentSource,
  type DisplayFields,
} from "./common.ts";
import type { Completer } from "./resource.ts";
import { issueLine } from "../shared/issues.ts";
import { unknownKey } from "../shared/option-keys.ts";
import type { ContentBlock } from "../shared/result.ts";

/** One message of a prompt (MCP PromptMessage). A string content is one text block. */
export interface PromptMessageInput {
  readonly role: "user" | "assistant";
  readonly content: ContentBlock | string;
}

/** A prompt message in wire shape, before projection. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

/** What `get` returns: a string (one user text message), messages, or `{ description, messages }`. */
export type PromptValue =
  | string
  | readonly PromptMessageInput[]
  | { readonly description?: string; readonly messages: readonly PromptMessageInput[] };

/** A `prompts/get` result, version-neutral. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

/** One argument as listed (MCP PromptArgument). */
export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

type AnyObjectSchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;
type ArgsOf<S> = S extends v.GenericSchema ? v.InferOutput<S> : Record<string, string>;

/** What `prompt()` takes. */
export interface PromptDefinition<S extends AnyObjectSchema | undefined = undefined> extends DisplayFields {
  /**
   * A valibot object schema whose fields are strings (MCP prompt arguments are strings): `v.string()`,
   * a pipe starting with it, `v.picklist([...])`, each optionally wrapped in `v.optional()`. A
   * `v.description()` (and `v.title()`) in a field's pipe is listed as the argument's.
   */
  readonly arguments?: S;
  /** Completers by argument name (`completion/complete` with `ref/prompt`); a picklist completes from its options without one. */
  readonly complete?: Readonly<Record<string, Completer>>;
  get(args: ArgsOf<S>, ctx: ContentContext): PromptValue | Promise<PromptValue>;
}

/** Every key `prompt()` takes; any other is refused at definition (the compiler checks none is missing). */
export const PROMPT_KEYS = [
  "name",
  "title",
  "description",
  "icons",
  "meta",
  "scopes",
  "arguments",
  "complete",
  "get",
] as const satisfies readonly (keyof PromptDefinition)[];
const PROMPT_KEYS_COMPLETE: [Exclude<keyof PromptDefinition, (typeof PROMPT_KEYS)[number]>] extends [never]
  ? true
  : never = true;
void PROMPT_KEYS_COMPLETE;

const PROMPT = PROMPT_BRAND;

/** A defined prompt. */
export interface Prompt<S extends AnyObjectSchema | undefined = AnyObjectSchema | undefined> {
  readonly [PROMPT]: true;
  readonly name: string;
  readonly definition: PromptDefinition<S>;
  /** The arguments as listed. */
  readonly arguments: readonly PromptArgument[];
  /** Options of picklist arguments, by name (the default completion). */
  readonly options: Readonly<Record<string, readonly string[]>>;
  /**
   * Gets the messages like `prompts/get` does.
   * @throws PromptArgumentsError when an argument is missing or not a string or fails its schema.
   */
  get(args?: Readonly<Record<string, unknown>>, ctx?: Partial<ContentContext>): Promise<PromptResult>;
  source?: ContentSource;
}

/** Arguments a prompt refuses (-32602 on the wire); the message names them. */
export class PromptArgumentsError extends Error {
  readonly code = "PROMPT_ARGUMENTS";
  constructor(message: string) {
    super(message);
    this.name = "PromptArgumentsError";
  }
}

/** Prompt names: the same set as tool names. */
const PROMPT_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

type Schemaish = {
  type: string;
  wrapped?: Schemaish;
  pipe?: readonly { type: string; kind?: string; description?: string; title?: string }[];
  options?: readonly unknown[];
  enum?: Record<string, unknown>;
  literal?: unknown;
};

/** The argument's base schema and whether it is required; undefined when it is not a string schema. */
function stringArgument(
  s: Schemaish,
): { required: boolean; description?: string; title?: string; options?: string[] } | undefined {
  let required = true;
  let cur = s;
  if (
    cur.type === "optional" ||
    cur.type === "exact_optional" ||
    cur.type === "nullish" ||
    cur.type === "undefinedable"
  ) {
    required = false;
    cur = cur.wrapped!;
  }
  let description: string | undefined;
  let title: string | undefined;
  if (cur.type === "pipe" || cur.pipe) {
    for (const p of cur.pipe ?? []) {
      if (p.type === "description" && typeof p.description === "string") description = p.description;
      if (p.type === "title" && typeof p.title === "string") title = p.title;
    }
    cur = (cur.pipe?.[0] as Schemaish | undefined) ?? cur;
  }
  if (cur.type === "string") return { required, description, title };
  if (cur.type === "picklist" && cur.options?.every((o) => typeof o === "string"))
    return { required, description, title, options: cur.options as string[] };
  if (cur.type === "enum" && cur.options?.every((o) => typeof o === "string"))
    return { required, description, title, options: cur.options as string[] };
  if (cur.type === "literal" && typeof cur.literal === "string")
    return { required, description, title, options: [cur.literal] };
  return undefined;
}

/**
 * Defines a prompt (MCP server/prompts).
 * @param def - see {@link PromptDefinition}.
 * @returns a {@link Prompt}: servable by `serve({ prompts })` and usable directly (`await p.get({ … })`).
 * @throws ContentDefinitionError on a bad name, an `arguments` schema that is not an object of string
 *   fields (naming the field), a completer for an unknown argument, or a missing `get`.
 */
export function prompt<S extends AnyObjectSchema | undefined = undefined>(def: PromptDefinition<S>): Prompt<S> {
  const name = (def as { name?: unknown })?.name;
  if (typeof name !== "string" || !PROMPT_NAME.test(name)) {
    throw new ContentDefinitionError(
      `prompt name ${JSON.stringify(name)} is not accepted: use 1-128 characters from A-Z a-z 0-9 _ - . ; put a display name in "title"`,
    );
  }
  const what = `prompt "${name}"`;
  const unknown = unknownKey(def, PROMPT_KEYS);
  if (unknown) throw new ContentDefinitionError(`${what}: ${unknown}`);
  checkDisplay(what, def);
  if (typeof def.get !== "function")
    throw new ContentDefinitionError(`${what}: "get" must be a function (args, ctx) => string | messages`);
  const args: PromptArgument[] = [];
  const options: Record<string, readonly string[]> = {};
  const schema = def.arguments as (Schemaish & { entries?: Record<string, Schemaish> }) | undefined;
  if (schema !== undefined) {
    if (typeof schema !== "object" || schema === null || !schema.entries || !/object$/i.test(schema.type)) {
      throw new ContentDefinitionError(
        `${what}: "arguments" must be a valibot object schema of strings, e.g. v.object({ code: v.string() })`,
      );
    }
    for (const [k, field] of Object.entries(schema.entries)) {
      const a = stringArgument(field);
      if (!a) {
        throw new ContentDefinitionError(
          `${what}: the argument "${k}" is v.${field.type}(), but MCP prompt arguments are strings: use v.string() (or v.picklist([...]), v.optional(v.string())) and convert inside get()`,
        );
      }
      const listed: PromptArgument = {
        name: k,
        ...(a.title !== undefined ? { title: a.title } : {}),
        ...(a.description !== undefined ? { description: a.description } : {}),
        required: a.required,
      };
      args.push(listed);
      if (a.options) options[k] = a.options;
    }
  }
  for (const k of Object.keys(def.complete ?? {})) {
    if (!args.some((a) => a.name === k))
      throw new ContentDefinitionError(
        `${what}: "complete" names "${k}", which is not one of its arguments (${args.map((a) => a.name).join(", ") || "none"})`,
      );
    if (typeof def.complete![k] !== "function")
      throw new ContentDefinitionError(`${what}: complete.${k} must be a function (value, ctx) => string[]`);
  }
  const p: Prompt<S> = {
    [PROMPT]: true,
    name,
    definition: def,
    arguments: args,
    options,
    async get(given, ctx) {
      const parsed = parsePromptArguments(p as Prompt, given ?? {});
      return toPromptResult(what, await def.get(parsed as never, directContext(ctx)));
    },
  };
  return p;
}

/**
 * Checks a `prompts/get` arguments map: an object of strings, every required argument present, then
 * the prompt's schema.
 * @returns the parsed arguments.
 * @throws PromptArgumentsError naming the argument.
 */
export function parsePromptArguments(p: Prompt, given: unknown): Record<string, unknown> {
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw new PromptArgumentsError(`Invalid params: the arguments of prompt "${p.name}" must be an object of strings`);
  for (const [k, value] of Object.entries(given)) {
    if (typeof value !== "string")
      throw new PromptArgumentsError(
        `Invalid params: the argument "${k}" of prompt "${p.name}" must be a string (MCP prompt arguments are strings); got ${value === null ? "null" : typeof value}`,
      );
  }
  const missing = p.arguments
    .filter((a) => a.required && (given as Record<string, unknown>)[a.name] === undefined)
    .map((a) => a.name);
  if (missing.length)
    throw new PromptArgumentsError(
      `Invalid params: prompt "${p.name}" needs the argument${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")}`,
    );
  const schema = p.definition.arguments;
  if (!schema) return given as Record<string, unknown>;
  const r = v.safeParse(schema, given);
  if (!r.success)
    throw new PromptArgumentsError(`Invalid params: prompt "${p.name}": ${r.issues.map(issueLine).join("; ")}`);
  return r.output as Record<string, unknown>;
}

const ROLES = new Set(["user", "assistant"]);

/**
 * What `get` returned, as a `prompts/get` result.
 * @throws ContentDefinitionError naming the prompt when the value is not messages.
 */
export function toPromptResult(what: string, value: unknown): PromptResult {
  if (typeof value === "string") return { messages: [{ role: "user", content: { type: "text", text: value } }] };
  let description: string | undefined;
  let list: unknown = value;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const o = value as { description?: unknown; messages?: unknown };
    if (o.description !== undefined && typeof o.description !== "string")
      throw new ContentDefinitionError(`${what}: get() returned a "description" that is not a string`);
    description = o.description as string | undefined;
    list = o.messages;
  }
  if (!Array.isArray(list))
    throw new ContentDefinitionError(
      `${what}: get() must return a string, an array of { role, content } messages, or { description?, messages }`,
    );
  const messages = list.map((m, i): PromptMessage => {
    const role = (m as { role?: unknown })?.role;
    if (typeof role !== "string" || !ROLES.has(role))
      throw new ContentDefinitionError(`${what}: message ${i} needs role "user" or "assistant"`);
    const content = (m as { content?: unknown }).content;
    if (typeof content === "string")
      return { role: role as PromptMessage["role"], content: { type: "text", text: content } };
    if (typeof content !== "object" || content === null || typeof (content as { type?: unknown }).type !== "string") {
      throw new ContentDefinitionError(
        `${what}: message ${i} needs a content block (textContent(…), imageContent(…), …) or a string`,
      );
    }
    return { role: role as PromptMessage["role"], content: content as ContentBlock };
  });
  return description === undefined ? { messages } : { description, messages };
}

/** True for values made by {@link prompt}. */
export function isPrompt(x: unknown): x is Prompt {
  return typeof x === "object" && x !== null && PROMPT in x;
}
