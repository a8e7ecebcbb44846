// Nothing reaches the wrong user: an upstream's ask that arrives after its call has ended (a stdio upstream's
// ask names no call) is refused upstream, never guessed onto the one call then in flight, which belongs to
// another session. Over `mcpbin proxy --http` with two legacy sessions, raw HTTP, a hand-written upstream
// (test/fixtures/upstreams/faults.ts "late_ask": answers, then asks for a password 300 ms later).
import { expect, setDefaultTimeout, test } from "bun:test";
import { faultsProxy, legacySession, messagesOf } from "./faults-proxy.ts";

setDefaultTimeout(60_000);
const proxy = faultsProxy();

test("an ask that arrives after its call ended is refused upstream, never sent on another session's call", async () => {
  const alice = await legacySession(proxy().url, { elicitation: {} });
  const bob = await legacySession(proxy().url, { elicitation: {} });
  const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });
  // Bob's slow call is the only call in flight when Alice's finished call asks (300 ms after its answer).
  const bobs = bob(call(2, "slow", { ms: 2000 }));
  await Bun.sleep(100);
  const a = await alice(call(2, "late_ask"));
  expect(a).toContain("done");
  const b = await bobs;
  const messages = messagesOf(b);
  expect(messages.some((m) => m.method === "elicitation/create")).toBe(false);
  expect(messages.at(-1).result.content[0].text).toBe("slow done");
  // The upstream was told no: the ask could not be tied to one session's call.
  await proxy().waitForStderr(/answer \{"code":-32603[^\n]*could not be attributed/, 5000);
  expect(proxy().stderr).not.toContain("Your password, please?");
});
