// A mounted server's scopes hold behind the parent's OAuth resource server: its scoped tool and scoped resource are
// neither listed to nor run for a caller without the scope, and the mounted server sees the caller in ctx.auth.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { HttpProcess, META, modernHeaders, post } from "../http/helpers.ts";
import { startIdp, type Idp } from "../helpers/idp.ts";

let idp: Idp;
let s: HttpProcess;

beforeAll(async () => {
  idp = await startIdp({ scopes: ["mcp:use", "files:write"] });
  s = await HttpProcess.source("test/fixtures/servers/oauth-mount.ts", { env: { OAUTH_ISSUERS: idp.issuer } });
}, 60_000);
afterAll(async () => {
  s?.kill();
  await idp?.stop();
});

const rpc = (token: string, method: string, params: Record<string, unknown>, name?: string) =>
  post(
    s.url,
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    { ...modernHeaders(method, name), authorization: `Bearer ${token}` },
  );

test("a caller without the scope is not shown the mounted server's scoped tool and resource, and cannot use them", async () => {
  const narrow = await idp.token({ scope: "mcp:use", resource: s.url });
  const tools = await rpc(narrow, "tools/list", {});
  expect(tools.json.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(["files__who", "ping"]);
  const call = await rpc(narrow, "tools/call", { name: "files__erase", arguments: {} }, "files__erase");
  expect(call.status).toBe(403);
  expect(call.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  expect(call.headers.get("www-authenticate")).toContain("files:write");

  const listed = await rpc(narrow, "resources/list", {});
  const uris: string[] = listed.json.result.resources.map((r: { uri: string }) => r.uri);
  expect(uris.length).toBe(1);
  expect(uris[0]).toContain("readme");
  const secret = uris[0]!.replace("docs", "secret").replace("readme", "plans");
  const read = await rpc(narrow, "resources/read", { uri: secret }, secret);
  expect(read.json.error).toBeDefined();
  expect(JSON.stringify(read.json)).not.toContain("the plans");
});

test("a caller with the scope is shown and runs them, and the mounted server sees who called", async () => {
  const wide = await idp.token({ scope: "mcp:use files:write", resource: s.url });
  const tools = await rpc(wide, "tools/list", {});
  expect(tools.json.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
    "files__erase",
    "files__who",
    "ping",
  ]);
  const call = await rpc(wide, "tools/call", { name: "files__erase", arguments: {} }, "files__erase");
  expect(call.json.result.content[0].text).toBe("erased");
  const who = await rpc(wide, "tools/call", { name: "files__who", arguments: {} }, "files__who");
  expect(JSON.parse(who.json.result.content[0].text)).toEqual({ subject: "svc", scopes: ["mcp:use", "files:write"] });
  const listed = await rpc(wide, "resources/list", {});
  const plans = listed.json.result.resources.find((r: { name: string }) => r.name === "plans");
  expect(plans).toBeDefined();
  const read = await rpc(wide, "resources/read", { uri: plans.uri }, plans.uri);
  expect(read.json.result.contents[0].text).toBe("the plans");
});
