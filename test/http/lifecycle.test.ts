// serve({ http }) without a flag; per-request timeout, idle expiry and the bound on legacy sessions,
// SIGTERM draining in-flight requests (and keeping serving for drainMs); the --http flag parser.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parseHttpFlag, resolveHttp, HttpOptionsError } from "../../src/transport/http-options.ts";
import { checkConfig } from "../../src/config/schema.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { HttpProcess, META, MODERN, modernHeaders, post } from "./helpers.ts";

const SERVER = "test/http/configured-server.ts";
const LEGACY = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const init = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const sleepCall = (ms: number, id = 2) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "sleep", arguments: { ms }, _meta: META },
});

let s: HttpProcess;
beforeAll(async () => {
  s = await HttpProcess.source(SERVER, { args: [] });
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load
afterAll(() => s?.kill());

test("serve({ http }) alone serves HTTP, and its options apply (allowedOrigins, maxBodyBytes)", async () => {
  expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const ok = await post(s.url, sleepCall(1), {
    ...modernHeaders("tools/call", "sleep"),
    origin: "https://app.example.com",
  });
  expect(ok.status).toBe(200);
  assertValidResponse(MODERN, "tools/call", ok.json);
  const other = await post(s.url, sleepCall(1), {
    ...modernHeaders("tools/call", "sleep"),
    origin: "https://other.example.com",
  });
  expect(other.status).toBe(403);
  const big = await post(s.url, { ...sleepCall(1), pad: "x".repeat(2000) }, modernHeaders("tools/call", "sleep"));
  expect(big.status).toBe(413);
});

test("a request over requestTimeoutMs is cancelled and answered with an error", async () => {
  const r = await post(s.url, sleepCall(5000), modernHeaders("tools/call", "sleep"));
  expect(r.status).toBe(200);
  expect(r.json.error.message).toContain("timed out after 1500 ms (http.requestTimeoutMs)");
  assertValidResponse(MODERN, "tools/call", r.json);
});

test("a client that closes the connection cancels its call (the tool's signal aborts)", async () => {
  const before = s.stderr.length;
  await expect(
    fetch(s.url, {
      method: "POST",
      headers: modernHeaders("tools/call", "sleep"),
      body: JSON.stringify(sleepCall(4000, 77)),
      signal: AbortSignal.timeout(200),
    }),
  ).rejects.toThrow();
  // The access line is written when the call ends: here when it is cancelled, well before the tool's 4 s.
  await s.waitForStderr(/tools\/call \d+ [\d.]+ms\n/, 10_000, before);
  const line = s.stderr.slice(before).trim();
  expect(line).toMatch(/^mcpbin: http \S+ POST \/mcp tools\/call 200 \d+\.\dms$/);
  expect(Number(/ (\d+)\.\dms$/.exec(line)![1])).toBeLessThan(3000);
});

test("legacy sessions: at most maxSessions (least recently used idle one dropped)", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await post(s.url, init, LEGACY);
    expect(r.status).toBe(200);
    ids.push(r.headers.get("mcp-session-id")!);
  }
  const list = (sid: string) =>
    post(s.url, { jsonrpc: "2.0", id: 5, method: "tools/list" }, { ...LEGACY, "mcp-session-id": sid });
  expect((await list(ids[0]!)).status).toBe(404); // evicted by the third
  expect((await list(ids[1]!)).status).toBe(200);
  expect((await list(ids[2]!)).status).toBe(200);
  // Expiry after sessionIdleMs is tested against an injected clock, without waiting: test/transport/http-sessions.test.ts.
});

test("SIGTERM drains: the call in flight completes, new connections are refused, the process exits 0", async () => {
  const d = await HttpProcess.source(SERVER, { args: [] });
  const inflight = post(
    d.url,
    { ...sleepCall(600), params: { ...sleepCall(600).params, name: "announced" } },
    modernHeaders("tools/call", "announced"),
  );
  await d.waitForStderr("announced: sleeping 600"); // the call is in flight
  d.kill("SIGTERM");
  const r = await inflight;
  expect(r.status).toBe(200);
  expect(r.json.result.content).toEqual([{ type: "text", text: "slept 600" }]);
  expect(await d.exited).toBe(0);
  await expect(fetch(d.url, { method: "POST" })).rejects.toThrow();
});

test("with drainMs, SIGTERM keeps serving while /healthz answers 503 draining, then exits 0; probes are not logged", async () => {
  const d = await HttpProcess.source(SERVER, { args: [], env: { MCPBIN_HTTP_DRAIN_MS: "1500" } });
  const health = new URL("/healthz", d.url).href;
  expect((await fetch(health)).status).toBe(200);
  d.kill("SIGTERM");
  let h = await fetch(health);
  for (let i = 0; h.status === 200 && i < 100; i++) h = await fetch(health); // until the signal is handled
  expect(h.status).toBe(503);
  expect((await h.text()).trim()).toBe("draining");
  // The balancer has not noticed yet: a call routed here now is still answered.
  const r = await post(d.url, sleepCall(1), modernHeaders("tools/call", "sleep"));
  expect(r.status).toBe(200);
  expect(r.json.result.content).toEqual([{ type: "text", text: "slept 1" }]);
  expect(await d.exited).toBe(0);
  await expect(fetch(d.url, { method: "POST" })).rejects.toThrow();
  // The call is in the access log; the health probes are not.
  expect(d.stderr).toMatch(/POST \/mcp tools\/call 200/);
  expect(d.stderr).not.toContain("/healthz");
});

test("http.drainMs is checked like the other keys", () => {
  expect(resolveHttp(["--http", "9000"], { drainMs: 5000 }, {})?.drainMs).toBe(5000);
  expect(resolveHttp(["--http", "9000"], {}, {})?.drainMs).toBe(0);
  expect(resolveHttp(["--http", "9000"], {}, { MCPBIN_HTTP_DRAIN_MS: "5000" })?.drainMs).toBe(5000);
  expect(() => resolveHttp(["--http", "9000"], { drainMs: -1 }, {})).toThrow("drainMs");
  const base = { name: "x", version: "1", tools: ["tools"] };
  expect(() => checkConfig({ ...base, http: { drainM: 1 } }, "c.ts")).toThrow('did you mean "drainMs"?');
});

test("--http values: port, host:port, [v6]:port; bad values say what to change", () => {
  expect(parseHttpFlag("8080")).toEqual({ port: 8080 });
  expect(parseHttpFlag("0.0.0.0:80")).toEqual({ host: "0.0.0.0", port: 80 });
  expect(parseHttpFlag("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
  expect(() => parseHttpFlag("http://x")).toThrow(HttpOptionsError);
  expect(() => parseHttpFlag("70000")).toThrow("--http: expected [host:]port");
  expect(resolveHttp([], undefined)).toBeUndefined();
  expect(resolveHttp(["--http", "9000"], undefined, {})?.host).toBe("127.0.0.1");
  expect(resolveHttp(["--stdio"], { port: 1 }, {})).toBeUndefined();
  expect(
    resolveHttp(["--http=1.2.3.4:5"], { port: 1, host: "h", token: "a" }, { MCPBIN_HTTP_TOKEN: "b" }),
  ).toMatchObject({ host: "1.2.3.4", port: 5, token: "b", path: "/mcp" });
  expect(() => resolveHttp(["--http"], undefined, {})).toThrow("--http needs a value");
  // Settings without a port wait for --http: stdio, the default, but checked all the same.
  expect(resolveHttp([], true, {})).toBeUndefined();
  expect(resolveHttp([], { token: "a" }, {})).toBeUndefined();
  expect(resolveHttp(["--http", "9000"], { token: "a" }, {})).toMatchObject({ port: 9000, token: "a" });
  expect(() => resolveHttp([], { path: "mcp" }, {})).toThrow("http.path must be");
  expect(() => resolveHttp([], { port: 1, path: "mcp" }, {})).toThrow(
    'http.path must be a path starting with "/" other than "/healthz" (e.g. "/mcp"); got "mcp"',
  );
});

test("the config file's http key is checked like the other keys", () => {
  const base = { name: "x", version: "1", tools: ["tools"] };
  expect(
    checkConfig({ ...base, http: { port: 8080, host: "0.0.0.0", allowedOrigins: ["https://a.example"] } }, "c.ts"),
  ).toBeDefined();
  expect(checkConfig({ ...base, http: true }, "c.ts")).toBeDefined();
  expect(() => checkConfig({ ...base, http: { port: 99999 } }, "c.ts")).toThrow(
    'c.ts: "http.port" must be an integer 0-65535 (0 picks a free port); got 99999',
  );
  expect(() => checkConfig({ ...base, http: { prot: 1 } }, "c.ts")).toThrow(
    'c.ts: "http.prot" is not a known key (did you mean "port"? allowed: port, host,',
  );
});
