// The client against real servers: the official SDK v1 over stdio (legacy), an mcpbin server from source
// over stdio (both eras), the official SDK v2 server over Streamable HTTP (both eras), and a hand-written
// stdio server for pagination, server → client ping, list_changed and the servers a client must survive.
// Every result the client hands back is validated against the official schema of the version in force.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { connect } from "../../src/client/connect.ts";
import type { McpClient } from "../../src/client/client.ts";
import { OutboundError } from "../../src/server/outbound.ts";
import { BUN, ROOT } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { HttpProcess } from "../http/helpers.ts";
import { stderrLines } from "./lines.ts";

const V1 = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-stdio.ts");
const RAW = resolve(ROOT, "test/fixtures/upstreams/raw.ts");
const FIXTURE = resolve(ROOT, "test/fixtures/servers/fixture.ts");

let v2: HttpProcess;
const open: McpClient[] = [];
beforeAll(async () => {
  v2 = await HttpProcess.start([BUN, resolve(ROOT, "test/fixtures/upstreams/sdk-v2-http.ts")], { args: [] });
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  v2?.kill();
});

async function client(...a: Parameters<typeof connect>): Promise<McpClient> {
  const c = await connect(...a);
  open.push(c);
  return c;
}

/** Validates a result the client returned as the response to `method` in the client's version. */
function valid(c: McpClient, method: string, result: unknown): void {
  assertValidResponse(c.protocolVersion, method, { jsonrpc: "2.0", id: 1, result });
}

test("SDK v1 over stdio: falls back to initialize, lists every tool as sent, calls with progress, cancels upstream", async () => {
  const stderr = stderrLines();
  const c = await client({ command: BUN, args: [V1] }, { name: "v1", stderr: (l) => stderr.push(l) });
  expect(c.era).toBe("legacy");
  expect(c.protocolVersion).toBe("2025-11-25");
  expect(c.serverInfo).toEqual({ name: "sdk-v1-upstream", version: "1.2.3" });
  expect(c.instructions).toBe("Use search for the v1 index.");
  const tools = await c.listTools();
  valid(c, "tools/list", { tools });
  const weather = tools.find((t) => t.name === "weather")!;
  expect(weather.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  expect(weather._meta).toEqual({ "example.com/owner": "v1" });
  expect(weather.outputSchema).toBeDefined();
  expect(tools.map((t) => t.name)).toContain("get.user");

  const r = await c.callTool("weather", { city: "Oslo" });
  valid(c, "tools/call", r);
  expect(r).toEqual({
    content: [
      { type: "text", text: '{"temperature":21.5,"city":"Oslo"}', annotations: { audience: ["user"], priority: 0.5 } },
    ],
    structuredContent: { temperature: 21.5, city: "Oslo" },
    _meta: { "example.com/source": "v1" },
  });

  const seen: unknown[] = [];
  const steps = await c.callTool("steps", {}, { onProgress: (p) => void seen.push(p) });
  expect(steps.content).toEqual([{ type: "text", text: "token string" }]);
  expect(seen).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));

  const ac = new AbortController();
  const waiting = c.callTool("wait", {}, { signal: ac.signal });
  const id = (await stderr.next(/^waiting in request /)).split(" ").pop();
  ac.abort();
  const e = await waiting.catch((x) => x);
  expect(e).toBeInstanceOf(OutboundError);
  expect(e.code).toBe("cancelled");
  // The upstream saw notifications/cancelled naming the request and aborted its handler.
  expect(await stderr.next(/^cancelled request /)).toBe(`cancelled request ${id}`);
  // The connection goes on.
  expect((await c.callTool("search", { q: "x" })).content).toEqual([{ type: "text", text: "v1:x" }]);
  // SDK v1 answers an unknown tool with an isError result (2025-11-25 guidance), handed back as is.
  const unknown = await c.callTool("nope", {});
  expect(unknown.isError).toBe(true);
});

test("an mcpbin server over stdio: 2026-07-28 by server/discover, or legacy when asked; a call timeout cancels", async () => {
  const m = await client({ command: BUN, args: [FIXTURE] }, { name: "fx" });
  expect(m.era).toBe("modern");
  expect(m.protocolVersion).toBe("2026-07-28");
  expect(m.serverInfo).toEqual({ name: "fixture", version: "1.0.0" });
  const tools = await m.listTools();
  expect(tools.length).toBeGreaterThan(10);
  const seen: number[] = [];
  const r = await m.callTool("progress", {}, { onProgress: (p) => void seen.push(p.progress) });
  valid(m, "tools/call", r);
  expect(r.resultType).toBe("complete");
  expect(seen).toEqual([1, 2, 3]);
  const slow = await m.callTool("sleep", { ms: 10_000 }, { timeoutMs: 50 }).catch((x) => x);
  expect(slow.code).toBe("timeout");
  expect(slow.message).toBe("fx: tools/call: no answer within 50 ms");
  const unknown = await m.callTool("nope", {}).catch((x) => x);
  expect(unknown).toBeInstanceOf(OutboundError);
  expect(unknown.code).toBe("rpc");
  expect(unknown.rpc.code).toBe(-32602);
  expect(unknown.message).toBe("fx: tools/call failed: Unknown tool: nope (-32602)");
  expect((await m.callTool("echo", { text: "after" })).content).toEqual([{ type: "text", text: "after" }]);

  const l = await client({ command: BUN, args: [FIXTURE] }, { era: "legacy" });
  expect(l.era).toBe("legacy");
  expect(l.protocolVersion).toBe("2025-11-25");
  const e = await l.callTool("echo", { text: "hi" });
  valid(l, "tools/call", e);
  expect(e).toEqual({ content: [{ type: "text", text: "hi" }] });
});

test("SDK v2 server over Streamable HTTP: 2026-07-28 with the standard headers, and legacy with a session", async () => {
  const m = await client({ url: v2.url, headers: { authorization: "Bearer secret-1" } });
  expect(m.era).toBe("modern");
  expect(m.serverInfo).toEqual({ name: "sdk-v2-upstream", version: "2.0.0" });
  expect(m.instructions).toBe("The v2 upstream.");
  const tools = await m.listTools();
  valid(m, "tools/list", { tools, ttlMs: 0, cacheScope: "private", resultType: "complete" });
  const r = await m.callTool("search", { q: "bun" });
  valid(m, "tools/call", r);
  expect(r.content).toEqual([{ type: "text", text: "v2:bun" }]);
  // The configured header reaches the server (it is the caller's own, not an inbound one).
  expect((await m.callTool("authorization", {})).content).toEqual([{ type: "text", text: "Bearer secret-1" }]);

  const l = await client({ url: v2.url }, { era: "legacy" });
  expect(l.era).toBe("legacy");
  const lr = await l.callTool("search", { q: "old" });
  valid(l, "tools/call", lr);
  expect(lr).toEqual({ content: [{ type: "text", text: "v2:old" }] });
});

test("pagination, a ping from the server answered, list_changed followed", async () => {
  const c = await client({ command: BUN, args: [RAW] }, { name: "raw" });
  expect(c.protocolVersion).toBe("2025-03-26");
  expect((await c.listTools()).map((t) => t.name)).toEqual(["a1", "a2", "b1", "b2", "c1"]);
  expect((await c.callTool("ping_me", {})).content).toEqual([{ type: "text", text: "pong {}" }]);
  const changed = new Promise<void>((r) => c.onToolsChanged(r));
  await c.callTool("change", {});
  await changed;
  expect((await c.listTools()).map((t) => t.name)).toEqual(["a1", "a2", "b1", "b2", "c1", "added"]);
});

test("a server that exits on the discover probe is started again and initialized", async () => {
  const c = await client({ command: BUN, args: [RAW, "exit-early"] }, { name: "early", stderr: "ignore" });
  expect(c.era).toBe("legacy");
  expect((await c.callTool("x", {})).content).toEqual([{ type: "text", text: "x" }]);
});

test("a server that never answers fails the handshake within its start timeout, naming it; a missing command says so", async () => {
  const e = await connect({ command: BUN, args: [RAW, "mute"] }, { name: "mute", startTimeoutMs: 300 }).catch((x) => x);
  expect(e).toBeInstanceOf(OutboundError);
  expect(e.code).toBe("timeout");
  expect(e.message).toBe("mute: no answer to the handshake within 300 ms");
  const missing = await connect({ command: "/nonexistent/mcp-server" }, { name: "gone" }).catch((x) => x);
  expect(missing.message).toContain("gone: cannot start");
});

test("a malformed target is a TypeError naming the key before anything starts (an unset variable as the command)", async () => {
  const unset = process.env.MCPBIN_TEST_SURELY_UNSET;
  const cases: [unknown, string][] = [
    [
      { command: unset },
      'connect(): "command" must be a non-empty string (the server\'s executable: an absolute path or a name on PATH); got undefined (an unset environment variable?)',
    ],
    [
      { command: "" },
      'connect(): "command" must be a non-empty string (the server\'s executable: an absolute path or a name on PATH); got "" (an unset environment variable?)',
    ],
    [{ command: BUN, args: "stdio" }, 'connect(): "args" must be an array of strings; got "stdio"'],
    [{ command: BUN, args: ["a", 1] }, 'connect(): "args" must be an array of strings; got an array holding number'],
    [
      { url: unset },
      'connect(): "url" must be a non-empty string such as "https://mcp.example.com/mcp"; got undefined (an unset environment variable?)',
    ],
    [
      { cmd: BUN },
      'connect(): the target must be {command, args?, env?, cwd?}, {url, headers?}, a transport or a server made by createServer(); got an object with neither "command" nor "url"',
    ],
    [
      null,
      "connect(): the target must be {command, args?, env?, cwd?}, {url, headers?}, a transport or a server made by createServer(); got null",
    ],
  ];
  for (const [target, message] of cases) {
    const e = await connect(target as never).catch((x) => x);
    expect(e).toBeInstanceOf(TypeError);
    expect(e.message).toBe(message);
  }
  // The public wrapper (src/index.ts loads the client on first use) throws the same.
  const { connect: publicConnect } = await import("../../src/index.ts");
  const e = await publicConnect({ command: unset } as never).catch((x) => x);
  expect(e).toBeInstanceOf(TypeError);
  expect(e.message).toContain('"command" must be a non-empty string');
});

test("the child gets the allow-listed environment plus its configured env, nothing else", async () => {
  process.env.M18_SECRET_TOKEN = "do-not-leak";
  try {
    const c = await client({ command: BUN, args: [V1], env: { CONFIGURED: "yes" } }, { stderr: "ignore" });
    const env = JSON.parse(((await c.callTool("env", {})).content[0] as { text: string }).text);
    expect(env.CONFIGURED).toBe("yes");
    expect(env.M18_SECRET_TOKEN).toBeUndefined();
    expect(env.PATH).toBe(process.env.PATH);
  } finally {
    delete process.env.M18_SECRET_TOKEN;
  }
});
