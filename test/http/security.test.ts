// The HTTP transport's safety defaults and error answers, on real server processes over real sockets:
// Origin/Host 403, bearer token 401, 413, 404 for unknown sessions, -32020 header mismatches, access log.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { assertValidResponse } from "../helpers/schema.ts";
import { HttpProcess, META, MODERN, modernHeaders, post } from "./helpers.ts";

const FIXTURE = "test/fixtures/servers/fixture.ts";
const LEGACY = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const init = (v = "2025-11-25") => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: v, capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const call = (name: string, args: unknown, id = 2) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, _meta: META },
});

let s: HttpProcess;
beforeAll(async () => {
  s = await HttpProcess.source(FIXTURE);
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load
afterAll(() => s?.kill());

describe("Origin and Host (DNS rebinding)", () => {
  test("a foreign Origin gets 403 and is never dispatched", async () => {
    const r = await post(s.url, call("echo", { text: "x" }), {
      ...modernHeaders("tools/call", "echo"),
      origin: "http://evil.example",
    });
    expect(r.status).toBe(403);
    const n = await post(s.url, call("echo", { text: "x" }), {
      ...modernHeaders("tools/call", "echo"),
      origin: "null",
    });
    expect(n.status).toBe(403);
  });
  test("a loopback Origin is allowed and gets CORS headers", async () => {
    const r = await post(s.url, call("echo", { text: "x" }), {
      ...modernHeaders("tools/call", "echo"),
      origin: "http://localhost:5173",
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    assertValidResponse(MODERN, "tools/call", r.json);
  });
  test("a foreign Host on a loopback bind gets 403 (fetch cannot forge Host, so a raw socket does)", async () => {
    const { port } = new URL(s.url);
    const body = JSON.stringify(init());
    const raw = await new Promise<string>((resolve) => {
      let out = "";
      void Bun.connect({
        hostname: "127.0.0.1",
        port: Number(port),
        socket: {
          open(sock) {
            sock.write(
              `POST /mcp HTTP/1.1\r\nHost: evil.example:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
            );
          },
          data(_sock, d) {
            out += d.toString();
          },
          close() {
            resolve(out);
          },
        },
      });
    });
    expect(raw).toStartWith("HTTP/1.1 403");
  });
});

describe("legacy sessions", () => {
  test("initialize issues a session id; requests without one get 400, unknown ones 404", async () => {
    const i = await post(s.url, init(), LEGACY);
    expect(i.status).toBe(200);
    assertValidResponse("2025-11-25", "initialize", i.json);
    const sid = i.headers.get("mcp-session-id")!;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    const ok = await post(s.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { ...LEGACY, "mcp-session-id": sid });
    expect(ok.status).toBe(200);
    assertValidResponse("2025-11-25", "tools/list", ok.json);
    const missing = await post(s.url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, LEGACY);
    expect(missing.status).toBe(400);
    const unknown = await post(
      s.url,
      { jsonrpc: "2.0", id: 4, method: "tools/list" },
      { ...LEGACY, "mcp-session-id": "00000000-0000-0000-0000-000000000000" },
    );
    expect(unknown.status).toBe(404);
    assertValidResponse("2025-11-25", "tools/list", unknown.json);
    const del = await fetch(s.url, { method: "DELETE", headers: { "mcp-session-id": sid } });
    expect(del.status).toBe(204);
    const gone = await post(
      s.url,
      { jsonrpc: "2.0", id: 5, method: "tools/list" },
      { ...LEGACY, "mcp-session-id": sid },
    );
    expect(gone.status).toBe(404);
  });
});

describe("modern header checks (-32020 with HTTP 400)", () => {
  const cases: [string, Record<string, string>][] = [
    ["MCP-Protocol-Version missing", { "mcp-protocol-version": "" }],
    ["MCP-Protocol-Version differs from _meta", { "mcp-protocol-version": "2025-11-25" }],
    ["Mcp-Method differs from the body", { "mcp-method": "tools/list" }],
    ["Mcp-Name differs from params.name", { "mcp-name": "add" }],
    ["Mcp-Name malformed Base64", { "mcp-name": "=?base64?%%%?=" }],
  ];
  for (const [what, override] of cases) {
    test(what, async () => {
      const h: Record<string, string> = { ...modernHeaders("tools/call", "echo"), ...override };
      for (const k of Object.keys(h)) if (h[k] === "") delete h[k];
      const r = await post(s.url, call("echo", { text: "x" }), h);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe(-32020);
      assertValidResponse(MODERN, "tools/call", r.json);
    });
  }
  test("Base64 and surrounding whitespace in Mcp-Name are accepted", async () => {
    const b64 = await post(
      s.url,
      call("echo", { text: "x" }),
      modernHeaders("tools/call", `=?base64?${btoa("echo")}?=`),
    );
    expect(b64.status).toBe(200);
    const ws = await post(s.url, call("echo", { text: "x" }), modernHeaders("tools/call", "  echo \t"));
    expect(ws.status).toBe(200);
    assertValidResponse(MODERN, "tools/call", ws.json);
  });
  test("the version header is compared before the version gate: header 2026-07-28 with an unknown _meta version is -32020", async () => {
    const body = {
      jsonrpc: "2.0",
      id: 3,
      method: "server/discover",
      params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "v999.0.0" } },
    };
    const r = await post(s.url, body, modernHeaders("server/discover"));
    expect([r.status, r.json.error.code]).toEqual([400, -32020]);
  });
  test("a request whose header says 2026-07-28 but whose body has no _meta claim is -32602 (400), not legacy traffic", async () => {
    const r = await post(s.url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, modernHeaders("tools/list"));
    expect([r.status, r.json.error.code]).toEqual([400, -32602]);
    assertValidResponse(MODERN, "tools/list", r.json);
  });
  test("a 2026-07-28 notification's _meta is optional: identified by its MCP-Protocol-Version header, it is accepted with 202", async () => {
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "user" } };
    const bare = await post(s.url, note, modernHeaders("notifications/cancelled"));
    expect([bare.status, bare.text]).toEqual([202, ""]);
    const noParams = await post(
      s.url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      modernHeaders("notifications/initialized"),
    );
    expect([noParams.status, noParams.text]).toEqual([202, ""]);
    const claimed = await post(
      s.url,
      { ...note, params: { ...note.params, _meta: META } },
      modernHeaders("notifications/cancelled"),
    );
    expect(claimed.status).toBe(202);
    // Neither claim nor modern header nor session: still legacy traffic without a session, 400.
    const legacy = await post(s.url, note, LEGACY);
    expect(legacy.status).toBe(400);
  });
  test("initialize with the modern claim is a removed method: 404 with -32601", async () => {
    const r = await post(
      s.url,
      { jsonrpc: "2.0", id: 3, method: "initialize", params: { _meta: META } },
      modernHeaders("initialize"),
    );
    expect([r.status, r.json.error.code]).toEqual([404, -32601]);
    expect(r.headers.get("mcp-session-id")).toBeNull();
  });
  test("an unsupported _meta version is -32022 and a missing capabilities key -32602, both 400", async () => {
    const body = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/list",
      params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
    };
    const v = await post(s.url, body, { ...modernHeaders("tools/list"), "mcp-protocol-version": "2099-01-01" });
    expect([v.status, v.json.error.code]).toEqual([400, -32022]);
    expect(v.json.error.data.supported).toContain(MODERN);
    const caps = await post(
      s.url,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } },
      },
      modernHeaders("tools/list"),
    );
    expect([caps.status, caps.json.error.code]).toEqual([400, -32602]);
  });
});

describe("request shape and size", () => {
  test("413 for a body over the limit (4 MiB default), 400 -32700 for bad JSON, 415, 405, 202 for a notification", async () => {
    const big = JSON.stringify(call("echo", { text: "x".repeat(5 * 1024 * 1024) }));
    const r = await post(s.url, big, modernHeaders("tools/call", "echo"));
    expect(r.status).toBe(413);
    const bad = await post(s.url, "{nope", modernHeaders("tools/call"));
    expect([bad.status, bad.json.error.code, bad.json.id]).toEqual([400, -32700, null]);
    const ct = await post(s.url, call("echo", { text: "x" }), {
      ...modernHeaders("tools/call", "echo"),
      "content-type": "text/plain",
    });
    expect(ct.status).toBe(415);
    expect((await fetch(s.url)).status).toBe(405);
    const note = await post(
      s.url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: META } },
      modernHeaders("notifications/cancelled"),
    );
    expect(note.status).toBe(202);
  });
  test("the access log has one line per request with method and status, never arguments", async () => {
    const before = s.stderr.length;
    await post(s.url, call("echo", { text: "SECRET-ARGUMENT-42" }), modernHeaders("tools/call", "echo"));
    // The access line of this very request: written once the call ended, after anything it could have logged.
    await s.waitForStderr(/mcpbin: http \S+ POST \/mcp tools\/call 200 \d+\.\dms\n/, 10_000, before);
    expect(s.stderr).not.toContain("SECRET-ARGUMENT-42");
    expect(s.stderr).toContain("POST /mcp - 413"); // refused before the body was read
  });
});

test("bearer token (MCPBIN_HTTP_TOKEN): 401 with WWW-Authenticate when missing or wrong, never logged", async () => {
  const t = await HttpProcess.source(FIXTURE, { env: { MCPBIN_HTTP_TOKEN: "s3cret-token-value" } });
  try {
    const none = await post(t.url, call("echo", { text: "x" }), modernHeaders("tools/call", "echo"));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    const wrong = await post(t.url, call("echo", { text: "x" }), {
      ...modernHeaders("tools/call", "echo"),
      authorization: "Bearer s3cret-token-valuE",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const ok = await post(t.url, call("echo", { text: "x" }), {
      ...modernHeaders("tools/call", "echo"),
      authorization: "Bearer s3cret-token-value",
    });
    expect(ok.status).toBe(200);
    assertValidResponse(MODERN, "tools/call", ok.json);
    expect((await fetch(new URL("/healthz", t.url))).status).toBe(200);
    // The last request's access line comes after every line the refused ones wrote.
    await t.waitForStderr(/POST \/mcp tools\/call 200 \d+\.\dms\n/);
    expect(t.stderr).toMatch(/401/);
    expect(t.stderr).not.toContain("s3cret");
  } finally {
    t.kill();
  }
});
