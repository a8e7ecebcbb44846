// Tools that ask, 2026-07-28 (issue 16): the requestState of an input_required round over raw HTTP (tampered,
// foreign and malformed retries refused) and the MCPBIN_STATE_KEY that signs it, checked at start.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { compileFixture } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { HttpProcess, META, modernHeaders, post } from "../http/helpers.ts";

type Msg = Record<string, any>;
const V = "2026-07-28";
const KEY = "k".repeat(16) + "shared-state-key-for-tests";
const ALL_CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

let bin: string;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/ask.ts", "ask-fixture-modern");
}, 60_000);
afterAll(async () => {
  for (const c of closers) await Promise.resolve(c()).catch(() => {});
});

test("raw HTTP: tampered, foreign-request and malformed retries are -32602; unknown keys ignored; wrong-shaped answers refused", async () => {
  const a = await HttpProcess.start([bin], { env: { MCPBIN_STATE_KEY: KEY } });
  closers.push(() => a.kill());
  const caps = { ...META, "io.modelcontextprotocol/clientCapabilities": ALL_CAPS };
  const call = (name: string, args: Msg, extra: Msg = {}, id = 1) =>
    post(
      a.url,
      { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: caps, ...extra } },
      modernHeaders("tools/call", name),
    );
  const first = await call("confirm_delete", { path: "/p" });
  const state = first.json.result.requestState as string;
  const answer = { elicit_1: { action: "decline" } };
  for (const [extra, message] of [
    [{ requestState: `${state}-TAMPERED`, inputResponses: answer }, "integrity check"],
    [{ requestState: state.slice(0, 20), inputResponses: answer }, "not one this server issued"],
    [{ requestState: state, inputResponses: 7 }, "inputResponses must be an object"],
    [{ requestState: state, inputResponses: { elicit_1: 12345 } }, 'inputResponses["elicit_1"] is not an ElicitResult'],
  ] as [Msg, string][]) {
    const r = await call("confirm_delete", { path: "/p" }, extra, 2);
    assertValidResponse(V, "tools/call", r.json);
    expect(r.json.error?.code).toBe(-32602);
    expect(r.json.error.message).toContain(message);
  }
  const otherArgs = await call("confirm_delete", { path: "/q" }, { requestState: state, inputResponses: answer }, 3);
  expect(otherArgs.json.error.message).toContain("was issued for another request");
  const extraKeys = await call(
    "confirm_delete",
    { path: "/p" },
    { requestState: state, inputResponses: { ...answer, nobody_asked: { action: "accept" } } },
    4,
  );
  expect(extraKeys.json.result).toMatchObject({
    resultType: "complete",
    content: [{ type: "text", text: "kept /p (decline)" }],
  });
  const missing = await call(
    "confirm_delete",
    { path: "/p" },
    { requestState: state, inputResponses: { wrong_key: { action: "accept" } } },
    5,
  );
  expect(missing.json.result.resultType).toBe("input_required");
  expect(Object.keys(missing.json.result.inputRequests)).toEqual(["elicit_1"]);
});

test("a MCPBIN_STATE_KEY shorter than 32 characters stops the executable at start with one line", async () => {
  const p = Bun.spawn([bin], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, MCPBIN_STATE_KEY: "too-short" },
  });
  expect(await p.exited).toBe(2);
  expect(await new Response(p.stdout).text()).toBe("");
  expect(await new Response(p.stderr).text()).toBe(
    "ask-fixture-modern: MCPBIN_STATE_KEY has 9 characters; use at least 32 (e.g. the output of `openssl rand -hex 32`), the same in every process behind one address\n",
  );
});
