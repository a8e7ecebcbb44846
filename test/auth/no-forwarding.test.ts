// A server behind OAuth never passes its caller's token on: not to an upstream MCP server, not to an OpenAPI
// target. The verified subject keys rateLimit({ by: "subject" }) and goes on the trace spans; the token does not.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { HttpProcess, META, modernHeaders, post } from "../http/helpers.ts";
import { startIdp, type Idp } from "../helpers/idp.ts";

let idp: Idp;
let upstream: HttpProcess;
let front: HttpProcess;
const apiSeen: (string | null)[] = [];
const api = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    apiSeen.push(req.headers.get("authorization"));
    return Response.json({ ok: true });
  },
});

beforeAll(async () => {
  [idp, upstream] = await Promise.all([
    startIdp({ scopes: ["mcp:use"] }),
    HttpProcess.source("test/fixtures/servers/headers-seen.ts"),
  ]);
  front = await HttpProcess.source("test/fixtures/servers/oauth-front.ts", {
    env: {
      OAUTH_ISSUER: idp.issuer,
      UPSTREAM_URL: upstream.url,
      API_URL: `http://127.0.0.1:${api.port}`,
      OTEL_TRACES_EXPORTER: "console",
    },
  });
}, 60_000);
afterAll(async () => {
  front?.kill();
  upstream?.kill();
  api.stop(true);
  await idp?.stop();
});

const call = (token: string, name: string) =>
  post(
    front.url,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {}, _meta: META } },
    { ...modernHeaders("tools/call", name), authorization: `Bearer ${token}` },
  );

test("the caller's token reaches neither the upstream MCP server nor the OpenAPI target; subjects are rate-limited apart; spans carry the subject, never the token", async () => {
  const token = await idp.token({ scope: "mcp:use", resource: front.url });
  const up = await call(token, "seen");
  expect(up.status).toBe(200);
  expect(up.json.result.content).toEqual([{ type: "text", text: "none" }]);
  const r = await call(token, "api_ping");
  expect(r.status).toBe(200);
  expect(r.json.result.isError).toBeFalsy();
  expect(apiSeen).toEqual([null]);

  // Four calls a minute per subject: svc has used two.
  expect((await call(token, "seen")).json.result.isError).toBeFalsy();
  expect(
    (await call(await idp.token({ scope: "mcp:use", resource: front.url }), "seen")).json.result.isError,
  ).toBeFalsy();
  const limited = await call(token, "seen");
  expect(limited.json.result.isError).toBe(true);
  expect(limited.json.result.content[0].text).toContain("per subject");
  // Another subject (client credentials: the subject is the client) has its own bucket.
  expect(
    (await call(await idp.token({ scope: "mcp:use", resource: front.url, client: "short" }), "seen")).json.result
      .isError,
  ).toBeFalsy();

  front.kill("SIGTERM");
  await front.exited;
  const spans = (await new Response(front.proc.stdout).text()) + front.stderr;
  expect(spans).toContain('"user.id": "svc"');
  expect(spans).toContain('"mcpbin.auth.client_id": "short"');
  expect(spans).not.toContain(token.split(".")[2]!);
  expect(front.stderr).not.toContain(token.split(".")[2]!);
}, 60_000);
