// A resource server on loopback without http.auth.resource: its resource identifier is the address it is bound to,
// never the request's Host header. A token minted for another local server is refused even when sent with that
// server's Host, and the protected-resource metadata names the bound address whatever Host a request claims.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect as tcp } from "node:net";
import { HttpProcess } from "../http/helpers.ts";
import { startIdp, type Idp } from "../helpers/idp.ts";

let idp: Idp;
let s: HttpProcess;

beforeAll(async () => {
  idp = await startIdp({ scopes: ["mcp:use"] });
  s = await HttpProcess.source("test/fixtures/servers/oauth.ts", { env: { OAUTH_ISSUERS: idp.issuer } });
}, 60_000);
afterAll(async () => {
  s?.kill();
  await idp?.stop();
});

/** One raw HTTP/1.1 request with the Host header given (fetch sets its own), answered as status, headers and body. */
function raw(
  path: string,
  host: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; head: string; body: string }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const sock = tcp(Number(u.port), u.hostname, () => {
      const body = o.body ?? "";
      const lines = [
        `${o.method ?? "GET"} ${path} HTTP/1.1`,
        `Host: ${host}`,
        "Connection: close",
        ...Object.entries(o.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
        ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
      ];
      sock.write(`${lines.join("\r\n")}\r\n\r\n${body}`);
    });
    let text = "";
    sock.on("data", (d) => (text += d.toString()));
    sock.on("error", reject);
    sock.on("close", () => {
      const i = text.indexOf("\r\n\r\n");
      resolve({ status: Number(text.split(" ")[1]), head: text.slice(0, i), body: text.slice(i + 4) });
    });
  });
}

test("a token minted for another local server is refused when sent with that server's Host", async () => {
  const forged = `127.0.0.1:${Number(new URL(s.url).port) === 1 ? 2 : 1}`;
  const token = await idp.token({ scope: "mcp:use", resource: `http://${forged}/mcp` });
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const r = await raw("/mcp", forged, {
    method: "POST",
    body,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
  });
  expect(r.status).toBe(401);
  expect(r.head).toContain('error_description="the token is for another audience"');
  expect(r.head).toContain(`resource_metadata="${new URL(s.url).origin}/.well-known/oauth-protected-resource/mcp"`);
});

test("the protected-resource metadata names the bound address, not a forged Host", async () => {
  const r = await raw("/.well-known/oauth-protected-resource/mcp", "localhost:1");
  expect(r.status).toBe(200);
  expect(JSON.parse(r.body.slice(r.body.indexOf("{"), r.body.lastIndexOf("}") + 1)).resource).toBe(s.url);
});
