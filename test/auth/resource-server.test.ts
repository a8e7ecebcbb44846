// The OAuth 2.1 resource server (src/auth/) against a real OpenID provider (oidc-provider) on loopback: its
// tokens admit; another issuer's, another audience's, expired, tampered or under-scoped ones do not; the
// protected-resource metadata (RFC 9728), the 401/403 challenges, scoped tools, introspection, the static token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { HttpProcess, META, modernHeaders, post } from "../http/helpers.ts";
import { SECRET, startIdp, type Idp } from "../helpers/idp.ts";

const SCOPES = ["mcp:use", "files:write"];
let idp: Idp;
let other: Idp;
let s: HttpProcess;

beforeAll(async () => {
  [idp, other] = await Promise.all([startIdp({ scopes: SCOPES }), startIdp({ scopes: SCOPES })]);
  s = await HttpProcess.source("test/fixtures/servers/oauth.ts", {
    env: {
      OAUTH_ISSUERS: idp.issuer,
      OAUTH_SKEW: "0",
      OAUTH_STATIC_TOKEN: "static-token-123",
      OAUTH_INTROSPECTION: `${idp.issuer}/token/introspection`,
      OAUTH_INTROSPECTION_SECRET: SECRET,
    },
  });
}, 60_000);
afterAll(async () => {
  s?.kill();
  await Promise.all([idp?.stop(), other?.stop()]);
});

const call = (token: string | undefined, name: string, args: Record<string, unknown> = {}) =>
  post(
    s.url,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: META } },
    { ...modernHeaders("tools/call", name), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  );
const list = (token: string) =>
  post(
    s.url,
    { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } },
    { ...modernHeaders("tools/list"), authorization: `Bearer ${token}` },
  );
const challenge = (r: { headers: Headers }) => r.headers.get("www-authenticate") ?? "";

describe("discovery", () => {
  test("a request without a token gets 401 with the path-aware metadata URL and the scopes every request needs", async () => {
    const r = await call(undefined, "whoami");
    expect(r.status).toBe(401);
    const origin = new URL(s.url).origin;
    expect(challenge(r)).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:use"`,
    );
    expect(challenge(r)).not.toContain("error=");
  });

  test("the metadata is served at the path-aware and the root well-known URLs, with CORS for any origin", async () => {
    const origin = new URL(s.url).origin;
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const r = await fetch(origin + path, { headers: { origin: "https://app.example.com" } });
      expect(r.status).toBe(200);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(await r.json()).toEqual({
        resource: s.url,
        authorization_servers: [idp.issuer],
        scopes_supported: SCOPES,
        bearer_methods_supported: ["header"],
        resource_name: "oauth-fixture",
      });
    }
    const pre = await fetch(origin + "/.well-known/oauth-protected-resource/mcp", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "GET" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect((await fetch(origin + "/.well-known/oauth-protected-resource/other")).status).toBe(404);
  });
});

describe("tokens the provider issues", () => {
  test("admit, and the tool sees the verified caller in ctx.auth", async () => {
    const token = await idp.token({ scope: "mcp:use", resource: s.url });
    const r = await call(token, "whoami");
    expect(r.status).toBe(200);
    expect(JSON.parse(r.json.result.content[0].text)).toEqual({
      subject: "svc",
      clientId: "svc",
      scopes: ["mcp:use"],
      issuer: idp.issuer,
      tokenSeen: true,
    });
  });

  test("a tool whose scope the caller lacks is left out of its list (marked private) and its call gets a 403 step-up challenge", async () => {
    const narrow = await idp.token({ scope: "mcp:use", resource: s.url });
    const l = await list(narrow);
    expect(l.json.result.tools.map((t: { name: string }) => t.name)).toEqual(["whoami"]);
    expect(l.json.result.cacheScope).toBe("private");
    const r = await call(narrow, "delete_file");
    expect(r.status).toBe(403);
    const origin = new URL(s.url).origin;
    expect(challenge(r)).toStartWith(
      'Bearer error="insufficient_scope", error_description="tool delete_file needs the scopes files:write"',
    );
    expect(challenge(r)).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge(r)).toContain('scope="mcp:use files:write"');

    const wide = await idp.token({ scope: "mcp:use files:write", resource: s.url });
    expect((await list(wide)).json.result.tools.map((t: { name: string }) => t.name)).toEqual([
      "whoami",
      "delete_file",
    ]);
    const ok = await call(wide, "delete_file");
    expect(ok.status).toBe(200);
    expect(ok.json.result.content).toEqual([{ type: "text", text: "deleted" }]);
  });

  test("a resource and a prompt with scopes: hidden from the lists of a caller without them (private), a 403 step-up on read and get", async () => {
    const rpc = (token: string, method: string, params: Record<string, unknown>, name?: string) =>
      post(
        s.url,
        { jsonrpc: "2.0", id: 3, method, params: { ...params, _meta: META } },
        { ...modernHeaders(method, name), authorization: `Bearer ${token}` },
      );
    const narrow = await idp.token({ scope: "mcp:use", resource: s.url });
    const resources = await rpc(narrow, "resources/list", {});
    expect(resources.json.result.resources.map((r: { uri: string }) => r.uri)).toEqual(["docs://readme"]);
    expect(resources.json.result.cacheScope).toBe("private");
    expect((await rpc(narrow, "prompts/list", {})).json.result.prompts).toEqual([]);
    const read = await rpc(narrow, "resources/read", { uri: "secret://plans" }, "secret://plans");
    expect(read.status).toBe(403);
    expect(challenge(read)).toContain('error_description="resource secret://plans needs the scopes files:write"');
    expect(challenge(read)).toContain('scope="mcp:use files:write"');
    const get = await rpc(narrow, "prompts/get", { name: "admin_prompt" }, "admin_prompt");
    expect(get.status).toBe(403);
    expect(challenge(get)).toContain("prompt admin_prompt needs the scopes files:write");
    expect(
      (await rpc(narrow, "resources/read", { uri: "docs://readme" }, "docs://readme")).json.result.contents[0].text,
    ).toBe("hello");

    const wide = await idp.token({ scope: "mcp:use files:write", resource: s.url });
    expect((await rpc(wide, "resources/list", {})).json.result.resources.map((r: { uri: string }) => r.uri)).toEqual([
      "docs://readme",
      "secret://plans",
    ]);
    expect(
      (await rpc(wide, "resources/read", { uri: "secret://plans" }, "secret://plans")).json.result.contents[0].text,
    ).toBe("the plans");
    expect(
      (await rpc(wide, "prompts/get", { name: "admin_prompt" }, "admin_prompt")).json.result.messages[0].content.text,
    ).toBe("do the admin thing");
  });

  test("a token without the scopes every request needs gets 403 insufficient_scope", async () => {
    const r = await call(await idp.token({ scope: "files:write", resource: s.url }), "whoami");
    expect(r.status).toBe(403);
    expect(challenge(r)).toContain('error="insufficient_scope"');
    expect(challenge(r)).toContain('scope="files:write mcp:use"');
  });
});

describe("tokens refused with 401 invalid_token", () => {
  const refused = async (token: string, why: string) => {
    const r = await call(token, "whoami");
    expect({ status: r.status, why: /error_description="([^"]*)"/.exec(challenge(r))?.[1] }).toEqual({
      status: 401,
      why,
    });
    expect(challenge(r)).toStartWith('Bearer error="invalid_token"');
  };

  test("another issuer's token (its own keys), even for this resource and scope", async () => {
    await refused(await other.token({ scope: "mcp:use", resource: s.url }), "the token's issuer is not trusted");
  });

  test("a token for another audience", async () => {
    await refused(
      await idp.token({ scope: "mcp:use", resource: "https://other.example.com/mcp" }),
      "the token is for another audience",
    );
  });

  // An expired token: test/auth/verify.test.ts moves the verifier's clock past its exp instead of waiting here.

  test("a tampered token, an unsigned one, one claiming our issuer signed by another key, and garbage", async () => {
    const token = await idp.token({ scope: "mcp:use", resource: s.url });
    const [h, p, sig] = token.split(".");
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, scope: "mcp:use files:write" })).toString("base64url");
    await refused(`${h}.${forged}.${sig}`, "the token's signature does not verify");
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    await refused(`${none}.${p}.`, "the token's algorithm is not accepted");
    const foreign = (await other.token({ scope: "mcp:use", resource: s.url })).split(".");
    const foreignClaims = JSON.parse(Buffer.from(foreign[1]!, "base64url").toString());
    const relabeled = Buffer.from(JSON.stringify({ ...foreignClaims, iss: idp.issuer })).toString("base64url");
    await refused(
      `${foreign[0]}.${relabeled}.${foreign[2]}`,
      "the token was signed with a key the issuer does not publish",
    );
    await refused("garbage", "the token is not active");
  });
});

test("an opaque token is introspected (RFC 7662): active ones admit with their claims", async () => {
  const token = await idp.token({ scope: "mcp:use", resource: s.url, client: "opaque" });
  expect(token.split(".").length).toBe(1);
  const r = await call(token, "whoami");
  expect(r.status).toBe(200);
  expect(JSON.parse(r.json.result.content[0].text)).toMatchObject({
    clientId: "opaque",
    scopes: ["mcp:use"],
    issuer: idp.issuer,
  });
});

test("the static http.token keeps working beside OAuth, unscoped", async () => {
  const r = await call("static-token-123", "delete_file");
  expect(r.status).toBe(200);
  expect(r.json.result.content).toEqual([{ type: "text", text: "deleted" }]);
  expect(s.stderr).not.toContain("static-token-123");
});

test("a legacy session belongs to the subject that opened it: another subject's valid token gets 404 on its id", async () => {
  const legacy = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const mine = await idp.token({ scope: "mcp:use", resource: s.url });
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  };
  const r = await post(s.url, init, { ...legacy, authorization: `Bearer ${mine}` });
  const sid = r.headers.get("mcp-session-id")!;
  expect(sid).toBeTruthy();
  const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
  const theirs = await idp.token({ scope: "mcp:use", resource: s.url, client: "opaque" });
  expect(
    (await post(s.url, ping, { ...legacy, "mcp-session-id": sid, authorization: `Bearer ${theirs}` })).status,
  ).toBe(404);
  expect(
    (await fetch(s.url, { method: "DELETE", headers: { "mcp-session-id": sid, authorization: `Bearer ${theirs}` } }))
      .status,
  ).toBe(404);
  expect((await post(s.url, ping, { ...legacy, "mcp-session-id": sid, authorization: `Bearer ${mine}` })).status).toBe(
    200,
  );
});

test('scopeFailure "result": the call of a tool without its scope is an isError result with HTTP 200, a read a -32602 error', async () => {
  const r2 = await HttpProcess.source("test/fixtures/servers/oauth.ts", {
    env: { OAUTH_ISSUERS: idp.issuer, OAUTH_SCOPE_FAILURE: "result" },
  });
  try {
    const token = await idp.token({ scope: "mcp:use", resource: r2.url });
    const headers = (method: string, name: string) => ({
      ...modernHeaders(method, name),
      authorization: `Bearer ${token}`,
    });
    const r = await post(
      r2.url,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "delete_file", arguments: {}, _meta: META } },
      headers("tools/call", "delete_file"),
    );
    expect(r.status).toBe(200);
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result.content[0].text).toContain("needs the OAuth scopes files:write");
    const read = await post(
      r2.url,
      { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "secret://plans", _meta: META } },
      headers("resources/read", "secret://plans"),
    );
    expect(read.status).toBe(200);
    expect(read.json.error.code).toBe(-32602);
  } finally {
    r2.kill();
  }
});
