// Sockets stay bounded whatever an HTTP client does: a body sent slowly has its own deadline and its 408 closes
// the connection; a flood of initialize from one client (one token, or one address) cannot push out another
// client's idle legacy sessions. Real server processes over real sockets.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect } from "node:net";
import { request } from "node:http";
import { HttpProcess } from "./helpers.ts";

setDefaultTimeout(60_000);
const FIXTURE = "test/fixtures/servers/unread.ts";
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });

describe("slow bodies", () => {
  let s: HttpProcess;
  beforeAll(async () => {
    s = await HttpProcess.source(FIXTURE, { env: { T_BODY_MS: "1500" } });
  }, 60_000);
  afterAll(() => s?.kill());

  test("a body sent at 1 byte/s gets 408 at the body deadline, and the server closes the connection", async () => {
    const url = new URL(s.url);
    const t0 = performance.now();
    const sock = connect(Number(url.port), url.hostname);
    let out = "";
    sock.on("data", (d) => (out += d.toString()));
    sock.on("error", () => {});
    const closed = new Promise<number>((r) => sock.on("close", () => r(performance.now() - t0)));
    sock.write(
      `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${init.length}\r\n\r\n`,
    );
    let i = 0;
    const drip = setInterval(() => {
      if (!sock.destroyed && i < init.length) sock.write(init[i++]!);
    }, 1000);
    const at = await Promise.race([closed, Bun.sleep(8000).then(() => -1)]);
    clearInterval(drip);
    sock.destroy();
    expect(out).toStartWith("HTTP/1.1 408");
    expect(out).toContain("http.bodyTimeoutMs");
    expect(at).toBeGreaterThan(1000);
    expect(at).toBeLessThan(5000);
  });
});

/** A legacy POST from a given local address (127.0.0.x) with an optional token; resolves status and session id. */
function legacyPost(
  port: number,
  body: string,
  o: { from?: string; token?: string; sid?: string },
): Promise<{ status: number; sid: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...JSON_HEADERS, "content-length": String(body.length) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.sid) headers["mcp-session-id"] = o.sid;
    const r = request(
      { host: "127.0.0.1", port, path: "/mcp", method: "POST", headers, localAddress: o.from, agent: false },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode!, sid: res.headers["mcp-session-id"] as string | undefined }),
        );
      },
    );
    r.on("error", reject);
    r.end(body);
  });
}

describe("session flooding", () => {
  let s: HttpProcess;
  let port: number;
  beforeAll(async () => {
    s = await HttpProcess.source(FIXTURE, { env: { T_MAX_SESSIONS: "40" } });
    port = Number(new URL(s.url).port);
  }, 60_000);
  afterAll(() => s?.kill());

  test("one token's flood of initialize drops its own oldest sessions, never another token's idle one", async () => {
    const bob = await legacyPost(port, init, { token: "bob" });
    expect(bob.status).toBe(200);
    const first = await legacyPost(port, init, { token: "mallory" });
    for (let i = 0; i < 120; i++) expect((await legacyPost(port, init, { token: "mallory" })).status).toBe(200);
    expect((await legacyPost(port, list, { token: "bob", sid: bob.sid })).status).toBe(200);
    expect((await legacyPost(port, list, { token: "mallory", sid: first.sid })).status).toBe(404);
  });

  test("without a token, one address's flood cannot push out another address's idle session", async () => {
    const other = await legacyPost(port, init, { from: "127.0.0.2" });
    expect(other.status).toBe(200);
    for (let i = 0; i < 120; i++) expect((await legacyPost(port, init, { from: "127.0.0.3" })).status).toBe(200);
    expect((await legacyPost(port, list, { from: "127.0.0.2", sid: other.sid })).status).toBe(200);
  });

  test("a flood whose every initialize carries a fresh made-up token is its address's flood: another address's idle session stays", async () => {
    const other = await legacyPost(port, init, { from: "127.0.0.4" });
    expect(other.status).toBe(200);
    for (let i = 0; i < 120; i++)
      expect((await legacyPost(port, init, { from: "127.0.0.5", token: crypto.randomUUID() })).status).toBe(200);
    expect((await legacyPost(port, list, { from: "127.0.0.4", sid: other.sid })).status).toBe(200);
  });
});
