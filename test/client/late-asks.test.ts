// Nothing reaches the wrong user: an upstream's ask that arrives after its call has ended (a stdio upstream's
// ask names no call) is refused upstream, never guessed onto the one call then in flight, which belongs to
// another session. Over `mcpbin proxy --http` with two legacy sessions, raw HTTP, a hand-written upstream
// (test/fixtures/upstreams/faults.ts "late_ask": answers, then asks for a password 300 ms later).
// Measured on main before the fix: the password question went out on the other session's call stream.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { HttpProcess, sseMessages } from "../http/helpers.ts";
import { serversFile } from "./front.ts";

setDefaultTimeout(60_000);
const FAULTS = resolve(ROOT, "test/fixtures/upstreams/faults.ts");
let proxy: HttpProcess;
beforeAll(async () => {
  proxy = await HttpProcess.start([
    BUN,
    resolve(ROOT, "bin/mcpbin.ts"),
    "proxy",
    "--servers",
    serversFile({ up: { command: BUN, args: [FAULTS] } }),
  ]);
}, 60_000);
afterAll(() => proxy?.kill());

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A legacy session that declares elicitation; returns a function POSTing one message on it (text of the answer). */
async function session(): Promise<(body: unknown) => Promise<string>> {
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: {} },
      clientInfo: { name: "t", version: "1" },
    },
  };
  const r = await fetch(proxy.url, { method: "POST", headers: HEADERS, body: JSON.stringify(init) });
  const sid = r.headers.get("mcp-session-id")!;
  await r.text();
  const post = async (body: unknown) =>
    (
      await fetch(proxy.url, {
        method: "POST",
        headers: { ...HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify(body),
      })
    ).text();
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return post;
}

test("an ask that arrives after its call ended is refused upstream, never sent on another session's call", async () => {
  const alice = await session();
  const bob = await session();
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
  const messages = b.trimStart().startsWith("{") ? [JSON.parse(b)] : sseMessages(b);
  expect(messages.some((m) => m.method === "elicitation/create")).toBe(false);
  expect(messages.at(-1).result.content[0].text).toBe("slow done");
  // The upstream was told no: the ask could not be tied to one session's call.
  await proxy.waitForStderr(/answer \{"code":-32603[^\n]*could not be attributed/, 5000);
  expect(proxy.stderr).not.toContain("Your password, please?");
});
