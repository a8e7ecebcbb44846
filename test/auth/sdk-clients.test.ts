// The official SDK clients (v1 and v2) sign in with their own OAuth providers to a compiled mcpbin executable
// served with --http behind oidc-provider: discovery from the 401, dynamic registration, PKCE, the resource
// indicator; a scoped tool is hidden until a step-up sign-in (after the 403 insufficient_scope) grants its scope.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError as UnauthorizedV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
  UnauthorizedError as UnauthorizedV2,
} from "@modelcontextprotocol/client";
import { compileFixture } from "../helpers/proc.ts";
import { startIdp, type Idp } from "../helpers/idp.ts";
import { HttpProcess } from "../http/helpers.ts";

let idp: Idp;
let bin: string;
let s: HttpProcess;

beforeAll(async () => {
  [idp, bin] = await Promise.all([
    startIdp({ scopes: ["mcp:use", "files:write"] }),
    compileFixture("test/fixtures/servers/oauth.ts", "oauth-fixture-sdk"),
  ]);
  s = await HttpProcess.start([bin], { env: { OAUTH_ISSUERS: idp.issuer } });
}, 120_000);
afterAll(async () => {
  s?.kill();
  await idp?.stop();
  if (bin) rmSync(bin, { force: true });
});

/** An in-memory OAuth client provider as the SDKs define it: a public client with a loopback redirect. */
function memoryProvider() {
  const state: { client?: any; tokens?: any; verifier?: string; redirects: URL[] } = { redirects: [] };
  return {
    state,
    provider: {
      get redirectUrl() {
        return "http://127.0.0.1:8976/callback";
      },
      get clientMetadata() {
        return {
          client_name: "sdk-test",
          redirect_uris: ["http://127.0.0.1:8976/callback"],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none",
        };
      },
      clientInformation: () => state.client,
      saveClientInformation: (c: unknown) => void (state.client = c),
      tokens: () => state.tokens,
      saveTokens: (t: unknown) => void (state.tokens = t),
      redirectToAuthorization: (u: URL) => void state.redirects.push(u),
      saveCodeVerifier: (v: string) => void (state.verifier = v),
      codeVerifier: () => state.verifier!,
    },
  };
}

/**
 * Runs `op`; on the SDK's UnauthorizedError (a 401, or a 403 step-up), plays the person at the browser, hands the
 * redirect back with `finish`, and runs `op` again.
 */
async function signedIn<T>(
  op: () => Promise<T>,
  finish: (back: URL) => Promise<void>,
  redirects: URL[],
  Unauthorized: new (...a: any[]) => Error,
): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await op();
    } catch (e) {
      if (!(e instanceof Unauthorized)) throw e;
      const url = redirects.pop();
      if (!url) throw e;
      const back = await idp.consent(url);
      await finish(back);
    }
  }
  throw new Error("no sign-in after three attempts");
}

test("SDK v1: signs in, lists what mcp:use allows, steps up for files:write and calls the scoped tool", async () => {
  const { provider, state } = memoryProvider();
  let transport!: HttpV1;
  const client = new ClientV1({ name: "v1-oauth", version: "1.0.0" });
  const finish = (back: URL) => transport.finishAuth(back.searchParams.get("code")!);
  // A transport that failed its start is not started again: a new one, with the same provider.
  await signedIn(
    () => client.connect((transport = new HttpV1(new URL(s.url), { authProvider: provider as never }))),
    finish,
    state.redirects,
    UnauthorizedV1,
  );
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["whoami"]);
  const who = await client.callTool({ name: "whoami", arguments: {} });
  expect(JSON.parse((who.content as any)[0].text)).toMatchObject({
    subject: "alice",
    clientId: state.client.client_id,
    scopes: ["mcp:use"],
    issuer: idp.issuer,
  });
  const deleted = await signedIn(
    () => client.callTool({ name: "delete_file", arguments: {} }),
    finish,
    state.redirects,
    UnauthorizedV1,
  );
  expect(deleted.content).toEqual([{ type: "text", text: "deleted" }]);
  expect(state.tokens.scope.split(" ").sort()).toEqual(["files:write", "mcp:use"]);
  await client.close();
}, 60_000);

test("SDK v2: signs in, lists what mcp:use allows, steps up for files:write and calls the scoped tool", async () => {
  const { provider, state } = memoryProvider();
  let transport!: HttpV2;
  const client = new ClientV2({ name: "v2-oauth", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto" },
  } as never);
  // RFC 9207: the redirect's parameters (code and iss) go back whole.
  const finish = (back: URL) => transport.finishAuth(back.searchParams);
  await signedIn(
    () => client.connect((transport = new HttpV2(new URL(s.url), { authProvider: provider as never }))),
    finish,
    state.redirects,
    UnauthorizedV2,
  );
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["whoami"]);
  const who = await client.callTool({ name: "whoami", arguments: {} });
  expect(JSON.parse((who.content as any)[0].text)).toMatchObject({
    subject: "alice",
    scopes: ["mcp:use"],
    issuer: idp.issuer,
  });
  const deleted = await signedIn(
    () => client.callTool({ name: "delete_file", arguments: {} }),
    finish,
    state.redirects,
    UnauthorizedV2,
  );
  expect(deleted.content).toEqual([{ type: "text", text: "deleted" }]);
  expect(state.tokens.scope.split(" ").sort()).toEqual(["files:write", "mcp:use"]);
  await client.close();
}, 60_000);
