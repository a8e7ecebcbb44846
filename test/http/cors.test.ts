// CORS on every answer a browser client may need to read, errors included: 400, 401, 403, 404, 405, 406,
// 413, 415, 202 and 200, from `--http` (a real server process) and from mcpHandler() mounted in a real
// Bun.serve, with WWW-Authenticate, Mcp-Session-Id and MCP-Protocol-Version exposed. A refused Origin gets
// no CORS headers (its 403 stays opaque to the page).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { mcpHandler, tool } from "../../src/index.ts";
import * as v from "valibot";
import { HttpProcess, META, modernHeaders, post } from "./helpers.ts";

const TOKEN = "cors-test-token";
const ORIGIN = "http://localhost:5173"; // a loopback origin: always allowed
const LEGACY = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const AUTH = { authorization: `Bearer ${TOKEN}`, origin: ORIGIN };
const init = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

/** Asserts the answer carries the CORS headers a page at ORIGIN needs to read it. */
function expectCors(h: Headers): void {
  expect(h.get("access-control-allow-origin")).toBe(ORIGIN);
  const exposed = (h.get("access-control-expose-headers") ?? "").toLowerCase().split(/\s*,\s*/);
  expect(exposed).toEqual(expect.arrayContaining(["www-authenticate", "mcp-session-id", "mcp-protocol-version"]));
  expect(h.get("vary")?.toLowerCase()).toContain("origin");
}

/** One raw HTTP/1.1 request with a forged Host header (fetch cannot set Host); returns the response head. */
function rawHead(url: string, host: string, headers: Record<string, string>, body: string): Promise<string> {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no answer to the raw request: ${out}`)), 10_000);
    void Bun.connect({
      hostname: "127.0.0.1",
      port: Number(port),
      socket: {
        open(sock) {
          const extra = Object.entries(headers)
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join("");
          sock.write(
            `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\n${extra}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
          );
        },
        data(_sock, d) {
          out += d.toString();
        },
        close() {
          clearTimeout(timer);
          resolve(out.split("\r\n\r\n")[0]!.toLowerCase());
        },
      },
    });
  });
}

/** The cases every endpoint must pass; `url` is the endpoint, the server requires TOKEN and takes at most 1024-byte bodies. */
function corsCases(endpoint: () => string) {
  test("401 without the token: WWW-Authenticate is readable", async () => {
    const r = await post(endpoint(), init, { ...LEGACY, origin: ORIGIN });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toStartWith("Bearer");
    expectCors(r.headers);
  });
  test("403 for a Host that is not allowed, from an allowed Origin", async () => {
    const head = await rawHead(endpoint(), "elsewhere.example", { ...LEGACY, ...AUTH }, JSON.stringify(init));
    expect(head).toStartWith("http/1.1 403");
    expect(head).toContain(`access-control-allow-origin: ${ORIGIN}`);
    expect(head).toContain("access-control-expose-headers: mcp-session-id, mcp-protocol-version, www-authenticate");
  });
  test("404 for an unknown session", async () => {
    const r = await post(
      endpoint(),
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { ...LEGACY, ...AUTH, "mcp-session-id": "00000000-0000-0000-0000-000000000000" },
    );
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe(-32600);
    expectCors(r.headers);
  });
  test("405 for GET", async () => {
    const r = await fetch(endpoint(), { headers: { ...AUTH, accept: "text/event-stream" } });
    expect(r.status).toBe(405);
    expectCors(r.headers);
  });
  test("413 for a body over the limit", async () => {
    const r = await post(endpoint(), { ...init, pad: "x".repeat(4096) }, { ...LEGACY, ...AUTH });
    expect(r.status).toBe(413);
    expectCors(r.headers);
  });
  test("415 for a body that is not JSON", async () => {
    const r = await post(endpoint(), "hello", { ...LEGACY, ...AUTH, "content-type": "text/plain" });
    expect(r.status).toBe(415);
    expectCors(r.headers);
  });
  test("406 for an Accept without JSON or SSE, 400 without a session id", async () => {
    const n = await post(endpoint(), init, { ...LEGACY, ...AUTH, accept: "text/html" });
    expect(n.status).toBe(406);
    expectCors(n.headers);
    const b = await post(endpoint(), { jsonrpc: "2.0", id: 2, method: "tools/list" }, { ...LEGACY, ...AUTH });
    expect(b.status).toBe(400);
    expectCors(b.headers);
  });
  test("200 initialize exposes Mcp-Session-Id; a 202 notification and a modern 200 carry CORS too", async () => {
    const i = await post(endpoint(), init, { ...LEGACY, ...AUTH });
    expect(i.status).toBe(200);
    expect(i.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expectCors(i.headers);
    const n = await post(
      endpoint(),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { ...LEGACY, ...AUTH, "mcp-session-id": i.headers.get("mcp-session-id")! },
    );
    expect(n.status).toBe(202);
    expectCors(n.headers);
    const m = await post(
      endpoint(),
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: META } },
      { ...modernHeaders("tools/list"), ...AUTH },
    );
    expect(m.status).toBe(200);
    expectCors(m.headers);
  });
  test("the preflight is 204 with CORS; a refused Origin gets 403 and no CORS headers", async () => {
    const p = await fetch(endpoint(), {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(p.status).toBe(204);
    expectCors(p.headers);
    expect(p.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    const r = await post(endpoint(), init, {
      ...LEGACY,
      authorization: `Bearer ${TOKEN}`,
      origin: "https://evil.example",
    });
    expect(r.status).toBe(403);
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
  });
}

describe("--http", () => {
  let s: HttpProcess;
  beforeAll(async () => {
    s = await HttpProcess.source("test/http/configured-server.ts", { env: { MCPBIN_HTTP_TOKEN: TOKEN } });
  }, 60_000);
  afterAll(() => s?.kill());
  corsCases(() => s.url);
  test("404 for another path than the endpoint", async () => {
    const r = await post(new URL("/elsewhere", s.url).href, init, { ...LEGACY, ...AUTH });
    expect(r.status).toBe(404);
    expectCors(r.headers);
  });
});

describe("mcpHandler() in Bun.serve", () => {
  let server: Server<undefined>;
  const echo = tool({
    name: "echo",
    description: "Echoes text.",
    input: v.object({ text: v.string() }),
    run: ({ text }) => text,
  });
  const mcp = mcpHandler({
    name: "mounted",
    version: "1.0.0",
    tools: [echo],
    http: { token: TOKEN, maxBodyBytes: 1024, allowedHosts: ["127.0.0.1"] },
  });
  beforeAll(() => {
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req, srv) => mcp(req, srv) });
  });
  afterAll(() => {
    mcp.close();
    void server?.stop(true);
  });
  corsCases(() => `http://127.0.0.1:${server.port}/mcp`);
});
