/** @module The shape checks of what a client answers to an ask (ElicitResult, CreateMessageResult, ListRootsResult), the same in both eras. */
import * as v from "valibot";
import { issueLine } from "../shared/issues.ts";
import { once } from "../runtime/once.ts";

/** The three kinds of ask and their wire methods. */
export type AskKind = "elicit" | "sample" | "roots";

/** The JSON-RPC method of each kind (MCP client/*). */
export const ASK_METHOD: Readonly<Record<AskKind, string>> = {
  elicit: "elicitation/create",
  sample: "sampling/createMessage",
  roots: "roots/list",
};

// Built on the first answer checked, not at every start (src/runtime/once.ts).
const SCHEMAS = once(() => {
  const Meta = v.optional(v.record(v.string(), v.unknown()));
  const Block = v.looseObject({ type: v.string() });
  return {
    elicit: v.looseObject({
      action: v.picklist(["accept", "decline", "cancel"]),
      content: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]))),
      _meta: Meta,
    }),
    sample: v.looseObject({
      role: v.picklist(["user", "assistant"]),
      content: v.union([Block, v.array(Block)]),
      model: v.string(),
      stopReason: v.optional(v.string()),
      _meta: Meta,
    }),
    roots: v.looseObject({
      roots: v.array(
        v.looseObject({ uri: v.pipe(v.string(), v.startsWith("file://")), name: v.optional(v.string()), _meta: Meta }),
      ),
      _meta: Meta,
    }),
  } as const;
});
const NAMES: Readonly<Record<AskKind, string>> = {
  elicit: "an ElicitResult",
  sample: "a CreateMessageResult",
  roots: "a ListRootsResult",
};

/**
 * Checks one answer's shape for its kind (the official schema's required fields and types; unknown fields kept).
 * @param kind - what was asked.
 * @param answer - the client's result (legacy: the response's `result`; 2026-07-28: one `inputResponses` value).
 * @returns the answer, or a sentence saying what is wrong (`is not an ElicitResult: action: …`).
 */
export function checkAnswer(
  kind: AskKind,
  answer: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const r = v.safeParse(SCHEMAS()[kind], answer);
  if (r.success) return { ok: true, value: r.output as Record<string, unknown> };
  return { ok: false, error: `is not ${NAMES[kind]}: ${r.issues.slice(0, 3).map(issueLine).join("; ")}` };
}
