/** @module The shapes of asking the client: what `ctx.elicit`, `ctx.sample` and `ctx.roots` take and return (MCP client/elicitation, client/sampling, client/roots). */
import type * as v from "valibot";

/** A valibot object schema of the kinds form elicitation allows (see {@link ElicitForm}). */
export type ElicitObjectSchema =
  | v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>
  | v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>
  | v.LooseObjectSchema<v.ObjectEntries, v.ErrorMessage<v.LooseObjectIssue> | undefined>;

/**
 * A form built once from a valibot object schema: its `requestedSchema` per protocol version and
 * the parser of the client's answer. Made by `elicitation(schema)`; `ctx.elicit` also takes the schema itself.
 */
export interface ElicitForm<S extends ElicitObjectSchema = ElicitObjectSchema> {
  readonly schema: S;
  /**
   * The `requestedSchema` for one version (2025-06-18: no titled or multi-select enums, defaults only on booleans).
   * @throws ElicitSchemaError when the version cannot carry a field.
   */
  requestedSchema(version: string): Record<string, unknown>;
  /** Parses the answer's `content` with the schema: its output, or one `path: message` line per issue. */
  parse(content: unknown): { ok: true; value: v.InferOutput<S> } | { ok: false; issues: string[] };
}

/** A form elicitation (MCP client/elicitation "Form Mode"). */
export interface ElicitFormRequest<S extends ElicitObjectSchema> {
  /** What the user is asked, shown by the client. */
  readonly message: string;
  /** The fields: a valibot object schema or a form from `elicitation()`. */
  readonly schema: S | ElicitForm<S>;
  readonly mode?: "form";
  /** The `inputRequests` key at 2026-07-28 (default `elicit_<n>`, n counting asks from 1); unique within one call. */
  readonly key?: string;
  /** Legacy eras: how long to wait for the client's answer, ms (default: the server's `askTimeoutMs`); 0: no limit. */
  readonly timeoutMs?: number;
}

/** A URL elicitation (MCP 2025-11-25+ client/elicitation "URL Mode"): the user acts out of band. */
export interface ElicitUrlRequest {
  readonly mode: "url";
  readonly message: string;
  /** An absolute URL the client shows before opening it. */
  readonly url: string;
  /** 2025-11-25: the `elicitationId` (default: a random UUID). */
  readonly elicitationId?: string;
  readonly key?: string;
  /** Legacy eras: how long to wait for the client's answer, ms (default: the server's `askTimeoutMs`); 0: no limit. */
  readonly timeoutMs?: number;
}

/** What a form elicitation returns: the parsed content on accept. */
export type ElicitFormResult<T> =
  | { readonly action: "accept"; readonly content: T }
  | { readonly action: "decline" | "cancel"; readonly content?: undefined };

/** What a URL elicitation returns: consent only (the interaction happens out of band). */
export interface ElicitUrlResult {
  readonly action: "accept" | "decline" | "cancel";
}

/** A sampling content block as the client sends it (text, image, audio; tool_use/tool_result from 2025-11-25). */
export type SamplingContent = { readonly type: string; readonly [key: string]: unknown };

/** One message of a sampling conversation. */
export interface SamplingMessage {
  readonly role: "user" | "assistant";
  readonly content: SamplingContent | readonly SamplingContent[];
}

/** What `ctx.sample` takes: the `sampling/createMessage` params (MCP client/sampling). */
export interface SampleRequest {
  readonly messages: readonly SamplingMessage[];
  /** The most tokens to sample. */
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: Record<string, unknown>;
  readonly includeContext?: "none" | "thisServer" | "allServers";
  readonly metadata?: Record<string, unknown>;
  /** Tools the model may call (2025-11-25+, needs the client's `sampling.tools`). */
  readonly tools?: readonly Record<string, unknown>[];
  readonly toolChoice?: Record<string, unknown>;
  readonly key?: string;
  /** Legacy eras: how long to wait for the client's answer, ms (default: the server's `askTimeoutMs`); 0: no limit. */
  readonly timeoutMs?: number;
}

/** The client's `CreateMessageResult`. */
export interface SampleResult {
  readonly role: "user" | "assistant";
  readonly content: SamplingContent | readonly SamplingContent[];
  readonly model: string;
  readonly stopReason?: string;
  readonly _meta?: Record<string, unknown>;
}

/** One of the client's roots (MCP client/roots). */
export interface Root {
  /** A `file://` URI. */
  readonly uri: string;
  readonly name?: string;
}

/** Options of `ctx.roots()`. */
export interface RootsRequest {
  readonly key?: string;
  /** Legacy eras: how long to wait for the client's answer, ms (default: the server's `askTimeoutMs`); 0: no limit. */
  readonly timeoutMs?: number;
}

/**
 * The asking half of the tool context. One `run` works in every era: in 2024-11-05 … 2025-11-25
 * each ask is a server → client request; at 2026-07-28 the first unanswered ask ends the round
 * with `resultType: "input_required"` and the tool runs again on the client's retry, earlier
 * answers replayed in order.
 */
export interface Asker {
  /**
   * Asks the user through the client (MCP client/elicitation; 2025-06-18+, URL mode 2025-11-25+).
   * @returns the action and, on accept of a form, the content parsed with the schema.
   * @throws AskError `unsupported` (`the client does not support elicitation`), `invalid-answer`
   *   (the content does not match the schema), `client-error`, `timeout`, `cancelled`, `bad-request`.
   */
  elicit<S extends ElicitObjectSchema>(request: ElicitFormRequest<S>): Promise<ElicitFormResult<v.InferOutput<S>>>;
  elicit(request: ElicitUrlRequest): Promise<ElicitUrlResult>;
  /**
   * Asks the client's model (MCP client/sampling, every version).
   * @returns the client's CreateMessageResult.
   * @throws AskError as {@link Asker.elicit} (`the client does not support sampling`).
   */
  sample(request: SampleRequest): Promise<SampleResult>;
  /**
   * The client's roots (MCP client/roots): `[]` when the client has none or does not support roots.
   * @throws AskError `invalid-answer`, `client-error`, `timeout`, `cancelled`.
   */
  roots(request?: RootsRequest): Promise<Root[]>;
  /** The capabilities the client declared (legacy: at `initialize`; 2026-07-28: in this request's `_meta`); `{}` when none. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * Forwards another server's `elicitation/create`, `sampling/createMessage` or `roots/list` as it is
   * (what `mcpbin proxy` does with an upstream's asks): legacy a server → client request, 2026-07-28
   * one `input_required` round. Absent on askers with no client.
   * @returns the client's result (its shape checked).
   * @throws AskError as {@link Asker.elicit} (`unsupported` when the client lacks the capability).
   */
  forward?(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: { readonly timeoutMs?: number; readonly key?: string },
  ): Promise<Record<string, unknown>>;
}
