// The 2026-07-28 multi round-trip runner and the requestState codec, driven round by round as the dispatcher does.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { AskError } from "../../src/ask/errors.ts";
import { InputRequired, modernAsker, type ModernAsker } from "../../src/ask/replay.ts";
import { decodeState, encodeState, MAX_STATE_BYTES, STATE_TTL_MS, stateKeyProblem } from "../../src/ask/state.ts";
import { RpcError } from "../../src/protocol/jsonrpc.ts";
import { assertValid } from "../helpers/schema.ts";

const V = "2026-07-28";
const ALL = { elicitation: {}, sampling: {}, roots: {} };
const binding = { method: "tools/call", name: "t", args: { path: "/x" } };

/** One round: the tool's outcome, or the round's InputRequired / RpcError, as the dispatcher races them. */
async function round(
  run: (a: ModernAsker) => Promise<unknown>,
  retry: { requestState?: unknown; inputResponses?: unknown } = {},
  caps: Record<string, unknown> = ALL,
  now = Date.now,
) {
  const a = modernAsker(V, caps, binding, retry, now);
  try {
    return await Promise.race([run(a).then((value) => ({ value })), a.stopped]);
  } catch (e) {
    return { error: e };
  }
}

const deleteTool = (log: string[]) => async (a: ModernAsker) => {
  log.push("start");
  const ok = await a.elicit({ message: "Delete /x?", schema: v.object({ confirm: v.boolean() }) });
  if (ok.action !== "accept" || !ok.content.confirm) return "kept";
  const s = await a.sample({
    messages: [{ role: "user", content: { type: "text", text: "Summarise" } }],
    maxTokens: 20,
  });
  return `deleted; ${(s.content as unknown as { text: string }).text}`;
};

test("a tool that asks twice: two input_required rounds, then complete; earlier answers replayed in order", async () => {
  const log: string[] = [];
  const r1 = await round(deleteTool(log));
  expect(r1).toBeInstanceOf(InputRequired);
  const ir1 = r1 as InputRequired;
  expect(Object.keys(ir1.inputRequests)).toEqual(["elicit_1"]);
  expect(ir1.inputRequests.elicit_1).toEqual({
    method: "elicitation/create",
    params: {
      message: "Delete /x?",
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
    },
  });
  assertValid(V, "InputRequiredResult", ir1.toResult());
  expect(ir1.toResult()).not.toHaveProperty("ttlMs");

  const r2 = await round(deleteTool(log), {
    requestState: ir1.requestState,
    inputResponses: { elicit_1: { action: "accept", content: { confirm: true } } },
  });
  const ir2 = r2 as InputRequired;
  expect(Object.keys(ir2.inputRequests)).toEqual(["sample_2"]);
  expect(ir2.inputRequests.sample_2!.method).toBe("sampling/createMessage");
  assertValid(V, "InputRequiredResult", ir2.toResult());
  expect(ir2.requestState).not.toBe(ir1.requestState);

  // Round 3 carries only the sampling answer: the elicitation's comes from the state.
  const r3 = await round(deleteTool(log), {
    requestState: ir2.requestState,
    inputResponses: { sample_2: { role: "assistant", content: { type: "text", text: "ok" }, model: "m" } },
  });
  expect(r3).toEqual({ value: "deleted; ok" });
  expect(log).toEqual(["start", "start", "start"]);
});

test("Promise.all of several asks: one round with every request; missing answers are asked again; unknown keys ignored", async () => {
  const tool = async (a: ModernAsker) => {
    const [name, greeting, roots] = await Promise.all([
      a.elicit({ key: "user_name", message: "Name?", schema: v.object({ name: v.string() }) }),
      a.sample({
        key: "greeting",
        messages: [{ role: "user", content: { type: "text", text: "Greet" } }],
        maxTokens: 50,
      }),
      a.roots({ key: "client_roots" }),
    ]);
    return { name, greeting: greeting.model, roots };
  };
  const r1 = (await round(tool)) as InputRequired;
  expect(Object.keys(r1.inputRequests).sort()).toEqual(["client_roots", "greeting", "user_name"]);
  expect(r1.inputRequests.client_roots).toEqual({ method: "roots/list", params: {} });
  assertValid(V, "InputRequiredResult", r1.toResult());
  const partial = (await round(tool, {
    requestState: r1.requestState,
    inputResponses: { user_name: { action: "accept", content: { name: "Ann" } }, nobody: 1 },
  })) as InputRequired;
  expect(Object.keys(partial.inputRequests).sort()).toEqual(["client_roots", "greeting"]);
  const done = await round(tool, {
    requestState: partial.requestState,
    inputResponses: {
      greeting: { role: "assistant", content: { type: "text", text: "hi" }, model: "m1" },
      client_roots: { roots: [{ uri: "file:///r", name: "R" }] },
    },
  });
  expect(done).toEqual({
    value: {
      name: { action: "accept", content: { name: "Ann" } },
      greeting: "m1",
      roots: [{ uri: "file:///r", name: "R" }],
    },
  });
});

test("answers sent without requestState are used (the first round may be pre-answered)", async () => {
  const r = await round(deleteTool([]), { inputResponses: { elicit_1: { action: "decline" } } });
  expect(r).toEqual({ value: "kept" });
});

test("capabilities come from the request: a missing one is a typed error the tool may catch; roots without the capability are []", async () => {
  const r = await round(
    async (a) => {
      try {
        await a.elicit({ message: "x", schema: v.object({ a: v.string() }) });
        return "asked";
      } catch (e) {
        expect(e).toBeInstanceOf(AskError);
        expect((e as AskError).code).toBe("unsupported");
        return { error: (e as Error).message, roots: await a.roots() };
      }
    },
    {},
    { sampling: {} },
  );
  expect(r).toEqual({ value: { error: "the client does not support elicitation", roots: [] } });
  const url = await round(
    async (a) =>
      a.elicit({ mode: "url", message: "Sign in", url: "https://example.com/x" }).catch((e: Error) => e.message),
    {},
    { elicitation: {} },
  );
  expect(url).toEqual({ value: "the client does not support URL elicitation" });
  const urlOk = (await round(
    async (a) => a.elicit({ mode: "url", message: "Sign in", url: "https://example.com/x" }),
    {},
    { elicitation: { url: {} } },
  )) as InputRequired;
  expect(urlOk.inputRequests.elicit_1).toEqual({
    method: "elicitation/create",
    params: { mode: "url", message: "Sign in", url: "https://example.com/x" },
  });
  assertValid(V, "InputRequiredResult", urlOk.toResult());
});

test("an answer of the wrong shape is -32602; one that does not match the form is an AskError in the tool", async () => {
  const shape = await round(deleteTool([]), { inputResponses: { elicit_1: 12345 } });
  expect((shape as { error: RpcError }).error).toBeInstanceOf(RpcError);
  expect((shape as { error: RpcError }).error.code).toBe(-32602);
  expect((shape as { error: RpcError }).error.message).toContain('inputResponses["elicit_1"] is not an ElicitResult');
  const mismatch = await round(
    async (a) =>
      a
        .elicit({ message: "x", schema: v.object({ confirm: v.boolean() }) })
        .catch((e: AskError) => [e.code, e.message]),
    { inputResponses: { elicit_1: { action: "accept", content: { confirm: "yes" } } } },
  );
  expect((mismatch as { value: string[] }).value[0]).toBe("invalid-answer");
  expect((mismatch as { value: string[] }).value[1]).toContain("does not match the form: confirm:");
  for (const bad of [null, 5, [1]]) {
    expect(() => modernAsker(V, ALL, binding, { inputResponses: bad })).toThrow(/inputResponses must be an object/);
  }
});

test("requestState: forged, tampered, foreign-keyed, expired, for another request or oversized → -32602", async () => {
  const r1 = (await round(deleteTool([]))) as InputRequired;
  const s = r1.requestState;
  const refused = (state: unknown, b = binding, now = Date.now()) => {
    try {
      decodeState(state, b, now);
      return "accepted";
    } catch (e) {
      expect(e).toBeInstanceOf(RpcError);
      expect((e as RpcError).code).toBe(-32602);
      return (e as Error).message;
    }
  };
  expect(refused(s)).toBe("accepted");
  expect(refused(`${s}-TAMPERED`)).toContain("integrity check");
  const [prefix, body, mac] = s.split(".");
  const forged = Buffer.from(
    JSON.stringify({
      ...JSON.parse(Buffer.from(body!, "base64url").toString()),
      a: { elicit_1: ["elicit", { action: "accept", content: { confirm: true } }] },
    }),
  ).toString("base64url");
  expect(refused(`${prefix}.${forged}.${mac}`)).toContain("integrity check");
  const foreign = encodeState(JSON.parse(Buffer.from(body!, "base64url").toString()), Buffer.alloc(32, 7))!;
  expect(refused(foreign)).toContain("integrity check");
  expect(refused("not-a-state")).toContain("not one this server issued");
  expect(refused(42)).toContain("must be a string");
  expect(refused(s, binding, Date.now() + STATE_TTL_MS + 1000)).toContain("expired");
  expect(refused(s, { ...binding, args: { path: "/y" } })).toContain("another request");
  expect(refused(s, { ...binding, name: "other" })).toContain("another request");
  expect(refused("m1." + "A".repeat(MAX_STATE_BYTES))).toContain("over");
  // Key order of the arguments does not matter.
  expect(refused(s, { ...binding, args: { path: "/x" } })).toBe("accepted");
});

test("a round whose answers would not fit in requestState ends with an AskError, not an oversized state", async () => {
  const big = "x".repeat(MAX_STATE_BYTES);
  const tool = async (a: ModernAsker) => {
    await a.sample({ key: "one", messages: [{ role: "user", content: { type: "text", text: "a" } }], maxTokens: 5 });
    await a.sample({ key: "two", messages: [{ role: "user", content: { type: "text", text: "b" } }], maxTokens: 5 });
    return "done";
  };
  const r = await round(tool, {
    inputResponses: { one: { role: "assistant", content: { type: "text", text: big }, model: "m" } },
  });
  expect((r as { error: AskError }).error).toBeInstanceOf(AskError);
  expect((r as { error: AskError }).error.message).toContain("too large to carry in requestState");
});

test("MCPBIN_STATE_KEY shorter than 32 characters is refused in one line", () => {
  expect(stateKeyProblem({ MCPBIN_STATE_KEY: "short" })).toMatch(/^MCPBIN_STATE_KEY has 5 characters; use at least 32/);
  expect(stateKeyProblem({ MCPBIN_STATE_KEY: "k".repeat(32) })).toBeUndefined();
  expect(stateKeyProblem({})).toBeUndefined();
});

test("a key used twice in one call is a typed error", async () => {
  const r = await round(
    async (a) => {
      await a.roots({ key: "k" }).catch(() => {});
      return a.roots({ key: "k" }).catch((e: AskError) => e.message);
    },
    { inputResponses: { k: { roots: [] } } },
  );
  expect(r).toEqual({ value: 'the ask key "k" is used twice in one call; give each ask its own key' });
});
