// Which call an upstream's ask belongs to, with two calls in flight on one upstream (an SDK v1 server, legacy,
// whose tool `ask_as` elicits "<who>?"): over Streamable HTTP each ask rides on its call's stream and goes to
// that call (a 2026-07-28 client sees it as input_required of the right call); over stdio nothing ties it to a
// call, so a legacy client gets it as a plain request that no other call's end or cancellation cancels, and a
// 2026-07-28 client never gets it (the upstream is told it could not be attributed), unless the ask carries its
// call's progress token (a hand-written upstream, raw.ts "asks"). Driven by the official
// SDK v1 and v2 clients in front of `mcpbin proxy`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { HttpProcess } from "../http/helpers.ts";
import { intercept } from "../helpers/sdk-tap.ts";
import { pumpLines, stderrLines } from "./lines.ts";
import { closedAfterEach, serversFile } from "./front.ts";

const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const ASKS = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-asks.ts");
const RAW = resolve(ROOT, "test/fixtures/upstreams/raw.ts");
type Msg = Record<string, any>;

let stdioFile: string;
let httpFile: string;
let tokenFile: string;
let up: HttpProcess;
const closers = closedAfterEach();
beforeAll(async () => {
  up = await HttpProcess.start([BUN, ASKS], { args: ["--http"] });
  stdioFile = serversFile({ asks: { command: BUN, args: [ASKS] } }, "mcpbin-ask-routing-");
  httpFile = serversFile({ asks: { url: up.url } }, "mcpbin-ask-routing-");
  tokenFile = serversFile({ raw: { command: BUN, args: [RAW, "asks"] } }, "mcpbin-ask-routing-");
}, 30_000);
afterAll(() => void up?.kill());

const text = (r: Msg) => (r.content as { text: string }[])[0]!.text;

/** Questions the front client was asked, each answered when the test says (`answer(who, value)`). */
function questions() {
  const held = new Map<string, (value: string) => void>();
  const waiters: (() => boolean)[] = [];
  return {
    held,
    ask(message: string): Promise<Msg> {
      const who = message.replace(/\?$/, "");
      return new Promise((resolve) => {
        held.set(who, (value) => resolve({ action: "accept", content: { answer: value } }));
        for (const w of waiters.splice(0)) if (!w()) waiters.push(w);
      });
    },
    /** Resolves once every one of `whos` has been asked (bounded). */
    asked(...whos: string[]): Promise<void> {
      return new Promise((resolve, reject) => {
        const all = () => whos.every((w) => held.has(w));
        if (all()) return resolve();
        const t = setTimeout(
          () => reject(new Error(`not asked within 15 s: ${whos.filter((w) => !held.has(w)).join(", ")}`)),
          15_000,
        );
        waiters.push(() => {
          if (!all()) return false;
          clearTimeout(t);
          resolve();
          return true;
        });
      });
    },
    answer(who: string, value: string) {
      held.get(who)!(value);
    },
  };
}

test("stdio upstream, SDK v1 client: with two calls in flight each ask is a plain request; cancelling one call leaves the other's question and answer intact", async () => {
  const transport = new StdioV1({ command: BUN, args: [MCPBIN, "proxy", "--servers", stdioFile], stderr: "pipe" });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new ClientV1({ name: "v1-front", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const q = questions();
  client.setRequestHandler(ElicitRequestSchema, (r) => q.ask(r.params.message) as never);
  await client.connect(transport);
  closers.push(() => client.close());

  // A starts, then waits upstream until B has started; both then ask, with both calls in flight.
  const a = client.callTool({ name: "ask_as", arguments: { who: "A", after: "B" } }, undefined, { timeout: 30_000 });
  await stderr.next(/^\[asks\] ask_as A: started$/);
  const cancelB = new AbortController();
  const b = client.callTool({ name: "ask_as", arguments: { who: "B" } }, undefined, { signal: cancelB.signal }).then(
    () => "finished",
    () => "rejected",
  );
  await q.asked("A", "B");
  // B is cancelled; its cancellation reaches the proxy before A's answer does (one pipe, in order). Before,
  // A's ask went out as part of the newest call (B) and was cancelled with it.
  cancelB.abort();
  expect(await b).toBe("rejected");
  q.answer("A", "alpha");
  expect(text(await a)).toBe("A got alpha");
  q.answer("B", "beta");
});

test("proxy --http, stdio upstream, SDK v1 client in a legacy session: with two calls in flight both asks reach the client (on a call's stream) and are answered", async () => {
  const p = await HttpProcess.start([BUN, MCPBIN, "proxy", "--servers", stdioFile]);
  closers.push(() => p.kill("SIGTERM"));
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const client = new ClientV1({ name: "v1-http", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const q = questions();
  client.setRequestHandler(ElicitRequestSchema, (r) => q.ask(r.params.message) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(p.url)));
  closers.push(() => client.close());
  const a = client.callTool({ name: "ask_as", arguments: { who: "A", after: "B" } });
  await p.waitForStderr(/\[asks\] ask_as A: started/);
  const b = client.callTool({ name: "ask_as", arguments: { who: "B" } });
  await q.asked("A", "B");
  q.answer("B", "beta");
  q.answer("A", "alpha");
  expect(text(await a)).toBe("A got alpha");
  expect(text(await b)).toBe("B got beta");
});

/** `mcpbin proxy --servers file` under the SDK v2 client at 2026-07-28; records each tools/call response with the `who` it was for. */
async function v2Front(file: string) {
  const transport = new StdioV2({ command: BUN, args: [MCPBIN, "proxy", "--servers", file], stderr: "pipe" });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const rounds: { who: string; asked: string[]; complete: boolean }[] = [];
  intercept(transport as never, (m, req) => {
    if (req?.method !== "tools/call" || !m.result) return;
    const asked = Object.values((m.result.inputRequests ?? {}) as Record<string, Msg>).map((r) =>
      String(r.params?.message),
    );
    rounds.push({ who: req.params.arguments.who, asked, complete: m.result.resultType !== "input_required" });
  });
  const client = new ClientV2(
    { name: "v2-front", version: "2.0.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } as never } },
  );
  const q = questions();
  client.setRequestHandler("elicitation/create", (r: Msg) => q.ask(r.params.message) as never);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return { client, stderr, rounds, q };
}

test("HTTP upstream, SDK v2 client (2026-07-28): each ask rides on its call's stream and comes back as input_required of that call", async () => {
  const { client, rounds, q } = await v2Front(httpFile);
  const a = client.callTool({ name: "ask_as", arguments: { who: "A", after: "B" } });
  await up.waitForStderr(/ask_as A: started/);
  const b = client.callTool({ name: "ask_as", arguments: { who: "B" } });
  await q.asked("A", "B");
  q.answer("B", "beta");
  q.answer("A", "alpha");
  expect(text((await a) as Msg)).toBe("A got alpha");
  expect(text((await b) as Msg)).toBe("B got beta");
  // Every input_required round of A asked A's question and every one of B asked B's (before: the newest call took both).
  const asking = rounds.filter((r) => !r.complete);
  expect(asking.map((r) => r.who).sort()).toEqual(["A", "B"]);
  for (const r of asking) expect(r.asked).toEqual([`${r.who}?`]);
});

test("stdio upstream, SDK v2 client (2026-07-28): an ask that cannot be attributed to one of two calls is refused upstream, never shown beside the wrong call", async () => {
  const { client, stderr, rounds, q } = await v2Front(stdioFile);
  const a = client.callTool({ name: "ask_as", arguments: { who: "A", after: "B" } });
  await stderr.next(/^\[asks\] ask_as A: started$/);
  const b = client.callTool({ name: "ask_as", arguments: { who: "B" } });
  const [ra, rb] = [text((await a) as Msg), text((await b) as Msg)];
  expect(ra).toContain("A failed:");
  expect(ra).toContain("elicitation/create could not be attributed to one of the 2 requests in flight to asks");
  expect(rb).toContain("B failed:");
  expect(q.held.size).toBe(0);
  expect(rounds.every((r) => r.complete)).toBe(true);
  // One call at a time, the ask is the call's own again.
  const c = client.callTool({ name: "ask_as", arguments: { who: "C" } });
  await q.asked("C");
  q.answer("C", "gamma");
  expect(text((await c) as Msg)).toBe("C got gamma");
});

test("stdio upstream whose ask carries its call's progress token: each ask goes to its own call, also with two in flight", async () => {
  const { client, rounds, q } = await v2Front(tokenFile);
  // The proxy sends a progress token of its own with every call; the upstream asks once both calls are in flight.
  const calls = ["A", "B"].map((who) => client.callTool({ name: "ask_token", arguments: { who } }));
  await q.asked("A", "B");
  q.answer("A", "alpha");
  q.answer("B", "beta");
  const [a, b] = await Promise.all(calls);
  expect(text(a as Msg)).toBe("A got alpha");
  expect(text(b as Msg)).toBe("B got beta");
  const asking = rounds.filter((r) => !r.complete);
  expect(asking.map((r) => r.who).sort()).toEqual(["A", "B"]);
  for (const r of asking) expect(r.asked).toEqual([`${r.who}?`]);
});
