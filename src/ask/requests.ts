/** @module One ask, era-neutral: the capability check of the version in force, the request's method and params, and what the tool gets from the client's answer. */
import { ASK_METHOD, checkAnswer, type AskKind } from "./answers.ts";
import { elicitation, isElicitForm } from "./elicit-schema.ts";
import { AskError, ElicitSchemaError } from "./errors.ts";
import type {
  ElicitForm,
  ElicitFormRequest,
  ElicitObjectSchema,
  ElicitUrlRequest,
  RootsRequest,
  SampleRequest,
} from "./types.ts";

/** A prepared ask: what to send and how to read the answer. `params` undefined: nothing to send (roots without the capability). */
export interface PreparedAsk {
  readonly kind: AskKind;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /** The caller's `key`, when given. */
  readonly key: string | undefined;
  /**
   * Turns the client's result into what the tool gets.
   * @throws AskError `invalid-answer` when it does not match (the shape, or the form's schema).
   */
  finish(answer: unknown): unknown;
}

type Caps = Readonly<Record<string, unknown>>;

const KEY = /^[A-Za-z0-9_.\-]{1,64}$/;

function obj(x: unknown): Record<string, unknown> | undefined {
  return typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}

function checkKey(key: unknown): string | undefined {
  if (key === undefined) return undefined;
  if (typeof key !== "string" || !KEY.test(key))
    throw new AskError("bad-request", `the ask key ${JSON.stringify(key)} must match ${KEY.source}`);
  return key;
}

function shaped(kind: AskKind, answer: unknown): Record<string, unknown> {
  const r = checkAnswer(kind, answer);
  if (!r.ok) throw new AskError("invalid-answer", `the client's answer to ${ASK_METHOD[kind]} ${r.error}`);
  return r.value;
}

/**
 * Prepares an elicitation (MCP client/elicitation): form mode from 2025-06-18, URL mode from 2025-11-25,
 * each only when the client declared it (`elicitation: {}` means form only).
 * @param request - what the tool asked.
 * @param version - the protocol version in force.
 * @param caps - the client's capabilities.
 * @throws AskError `unsupported` (`the client does not support elicitation`…) or `bad-request`.
 */
export function prepareElicit(
  request: ElicitFormRequest<ElicitObjectSchema> | ElicitUrlRequest,
  version: string,
  caps: Caps,
): PreparedAsk {
  if (!obj(request) || typeof request.message !== "string")
    throw new AskError("bad-request", 'ctx.elicit needs { message, schema } or { mode: "url", message, url }');
  const key = checkKey(request.key);
  const cap = obj(caps.elicitation);
  if (version < "2025-06-18")
    throw new AskError(
      "unsupported",
      `the client does not support elicitation (protocol version ${version} has none; it needs 2025-06-18 or later)`,
      { elicitation: {} },
    );
  if (!cap) throw new AskError("unsupported", "the client does not support elicitation", { elicitation: {} });
  const both = cap.form === undefined && cap.url === undefined;
  if (request.mode === "url") {
    if (version < "2025-11-25")
      throw new AskError(
        "unsupported",
        `the client does not support URL elicitation (protocol version ${version} has none; it needs 2025-11-25 or later)`,
        { elicitation: { url: {} } },
      );
    if (cap.url === undefined)
      throw new AskError("unsupported", "the client does not support URL elicitation", { elicitation: { url: {} } });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new AskError("bad-request", `the elicitation URL ${JSON.stringify(request.url)} is not an absolute URL`);
    }
    const params: Record<string, unknown> = { mode: "url", message: request.message, url: url.href };
    if (version === "2025-11-25") params.elicitationId = request.elicitationId ?? crypto.randomUUID();
    return {
      kind: "elicit",
      method: ASK_METHOD.elicit,
      params,
      key,
      finish: (a) => ({ action: shaped("elicit", a).action }),
    };
  }
  if (request.mode !== undefined && request.mode !== "form")
    throw new AskError("bad-request", `elicitation mode ${JSON.stringify(request.mode)} is neither "form" nor "url"`);
  if (!both && cap.form === undefined)
    throw new AskError("unsupported", "the client does not support form elicitation", { elicitation: { form: {} } });
  let form: ElicitForm;
  let requestedSchema: Record<string, unknown>;
  try {
    form = isElicitForm(request.schema) ? request.schema : elicitation(request.schema as ElicitObjectSchema);
    requestedSchema = form.requestedSchema(version);
  } catch (e) {
    if (e instanceof ElicitSchemaError) throw new AskError("bad-request", e.message);
    throw e;
  }
  const params = { message: request.message, requestedSchema };
  return {
    kind: "elicit",
    method: ASK_METHOD.elicit,
    params,
    key,
    finish(a) {
      const r = shaped("elicit", a);
      if (r.action !== "accept") return { action: r.action };
      const parsed = form.parse(r.content ?? {});
      if (!parsed.ok)
        throw new AskError(
          "invalid-answer",
          `the client's answer to "${request.message}" does not match the form: ${parsed.issues.join("; ")}`,
          parsed.issues,
        );
      return { action: "accept", content: parsed.value };
    },
  };
}

const SAMPLE_FIELDS = [
  "messages",
  "maxTokens",
  "systemPrompt",
  "temperature",
  "stopSequences",
  "modelPreferences",
  "includeContext",
  "metadata",
  "tools",
  "toolChoice",
] as const;

/**
 * Prepares a sampling request (MCP client/sampling): needs the client's `sampling` capability; `tools`
 * and `toolChoice` need 2025-11-25+ and `sampling.tools`.
 * @throws AskError `unsupported` (`the client does not support sampling`) or `bad-request`.
 */
export function prepareSample(request: SampleRequest, version: string, caps: Caps): PreparedAsk {
  if (!obj(request) || !Array.isArray(request.messages) || request.messages.length === 0)
    throw new AskError("bad-request", "ctx.sample needs { messages: [at least one], maxTokens }");
  if (!Number.isSafeInteger(request.maxTokens) || request.maxTokens <= 0)
    throw new AskError("bad-request", "ctx.sample needs maxTokens, a positive integer");
  const key = checkKey(request.key);
  const cap = obj(caps.sampling);
  if (!cap) throw new AskError("unsupported", "the client does not support sampling", { sampling: {} });
  if (
    (request.tools !== undefined || request.toolChoice !== undefined) &&
    (version < "2025-11-25" || cap.tools === undefined)
  ) {
    throw new AskError("unsupported", "the client does not support tool use in sampling", { sampling: { tools: {} } });
  }
  const params: Record<string, unknown> = {};
  for (const f of SAMPLE_FIELDS) if (request[f] !== undefined) params[f] = request[f];
  return { kind: "sample", method: ASK_METHOD.sample, params, key, finish: (a) => shaped("sample", a) };
}

/**
 * Prepares `roots/list` (MCP client/roots). Without the client's `roots` capability nothing is sent and the roots are `[]`.
 * @throws AskError `bad-request` for a malformed key.
 */
export function prepareRoots(request: RootsRequest | undefined, caps: Caps): PreparedAsk {
  const key = checkKey(request?.key);
  const params = obj(caps.roots) ? {} : undefined;
  return {
    kind: "roots",
    method: ASK_METHOD.roots,
    params,
    key,
    finish: (a) => (shaped("roots", a).roots as unknown[]).slice(),
  };
}
