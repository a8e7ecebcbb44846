/** @module Forwarding another server's ask as it is (a proxy's): the kind of a server → client request, the capability check of the client in front, and the answer's shape check. */
import { ASK_METHOD, checkAnswer, type AskKind } from "./answers.ts";
import { AskError } from "./errors.ts";
import type { PreparedAsk } from "./requests.ts";

/** Options of one forwarded ask. */
export interface ForwardOptions {
  /** Legacy eras: how long to wait for the client's answer, ms (default: the server's `askTimeoutMs`); 0: no limit. */
  readonly timeoutMs?: number;
}

/**
 * The kind of a server → client request a proxy forwards.
 * @returns `elicit`, `sample` or `roots`; undefined for any other method.
 */
export function askKindOf(method: string): AskKind | undefined {
  return (Object.keys(ASK_METHOD) as AskKind[]).find((k) => ASK_METHOD[k] === method);
}

function obj(x: unknown): Record<string, unknown> | undefined {
  return typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}

/**
 * Prepares an upstream's `elicitation/create`, `sampling/createMessage` or `roots/list` for the client in
 * front, params as the upstream sent them (its `_meta` left out): the client must have declared the
 * capability (URL elicitation: `elicitation.url`; sampling with tools: `sampling.tools`).
 * @param method - the upstream's method.
 * @param params - its params.
 * @param version - the protocol version of the client in front.
 * @param caps - that client's capabilities.
 * @throws AskError `unsupported` naming the capability, or `bad-request` for another method.
 */
export function prepareForward(
  method: string,
  params: Record<string, unknown> | undefined,
  version: string,
  caps: Readonly<Record<string, unknown>>,
  key?: string,
): PreparedAsk {
  const kind = askKindOf(method);
  if (!kind) throw new AskError("bad-request", `${method} is not a request a server may send to the client`);
  const { _meta: _, ...rest } = params ?? {};
  if (kind === "elicit") {
    const cap = obj(caps.elicitation);
    if (!cap || version < "2025-06-18")
      throw new AskError("unsupported", "the client does not support elicitation", { elicitation: {} });
    const url = rest.mode === "url";
    if (url && (version < "2025-11-25" || cap.url === undefined))
      throw new AskError("unsupported", "the client does not support URL elicitation", { elicitation: { url: {} } });
    if (!url && cap.form === undefined && cap.url !== undefined)
      throw new AskError("unsupported", "the client does not support form elicitation", { elicitation: { form: {} } });
  } else if (kind === "sample") {
    const cap = obj(caps.sampling);
    if (!cap) throw new AskError("unsupported", "the client does not support sampling", { sampling: {} });
    if (
      (rest.tools !== undefined || rest.toolChoice !== undefined) &&
      (version < "2025-11-25" || cap.tools === undefined)
    ) {
      throw new AskError("unsupported", "the client does not support tool use in sampling", {
        sampling: { tools: {} },
      });
    }
  } else if (!obj(caps.roots)) throw new AskError("unsupported", "the client does not support roots", { roots: {} });
  return {
    kind,
    method,
    params: rest,
    // The upstream's own inputRequests key when it has one this server could also use.
    key: typeof key === "string" && /^[A-Za-z0-9_.\-]{1,64}$/.test(key) ? key : undefined,
    finish(a) {
      const r = checkAnswer(kind, a);
      if (!r.ok) throw new AskError("invalid-answer", `the client's answer to ${method} ${r.error}`);
      return r.value;
    },
  };
}
