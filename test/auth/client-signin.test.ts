// An mcpbin client signs in to an mcpbin server behind oidc-provider: discovery from the 401, dynamic
// registration, PKCE, the resource indicator, RFC 9207 iss; step-up after a 403; tokens kept in a 0600 file
// and used again; refresh with rotation; client credentials for headless use.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "../../src/index.ts";
import { fileTokenStore } from "../../src/auth/token-store.ts";
import { SECRET, startIdp, type Idp } from "../helpers/idp.ts";
import { HttpProcess } from "../http/helpers.ts";

let idp: Idp;
let s: HttpProcess;
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "mcpbin-oauth-"));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  idp = await startIdp({ scopes: ["mcp:use", "files:write"] });
  s = await HttpProcess.source("test/fixtures/servers/oauth.ts", { env: { OAUTH_ISSUERS: idp.issuer } });
}, 60_000);
afterAll(async () => {
  s?.kill();
  await idp?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

test("signs in as a person would (authorization code, PKCE, dynamic registration), steps up for a scoped tool, keeps its tokens in a 0600 file and uses them again", async () => {
  const dir = tempDir();
  const authorized: URL[] = [];
  const authorize = async (url: URL) => {
    authorized.push(url);
    return idp.consent(url);
  };
  const c = await connect({ url: s.url, auth: { tokenStore: fileTokenStore(dir), authorize } });
  expect(authorized.length).toBe(1);
  const first = authorized[0]!.searchParams;
  expect(first.get("code_challenge_method")).toBe("S256");
  expect(first.get("resource")).toBe(s.url);
  expect(first.get("scope")).toBe("mcp:use offline_access");
  expect((await c.listTools()).map((t) => t.name)).toEqual(["whoami"]);
  expect(JSON.parse(text(await c.callTool("whoami", {})))).toMatchObject({
    subject: "alice",
    scopes: ["mcp:use", "offline_access"].filter((x) => x === "mcp:use"),
  });
  // The scoped tool: a 403 insufficient_scope, a step-up sign-in for both scopes, the call again.
  expect(text(await c.callTool("delete_file", {}))).toBe("deleted");
  expect(authorized.length).toBe(2);
  expect(authorized[1]!.searchParams.get("scope")!.split(" ").sort()).toEqual([
    "files:write",
    "mcp:use",
    "offline_access",
  ]);
  await c.close();

  const files = readdirSync(join(dir, "oauth"));
  expect(files.length).toBe(1);
  const file = join(dir, "oauth", files[0]!);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, "oauth")).mode & 0o777).toBe(0o700);
  const kept = JSON.parse(readFileSync(file, "utf8"));
  expect(kept).toMatchObject({ issuer: idp.issuer, resource: s.url, client: { kind: "registered" } });

  // Another client with the same store signs in no more.
  const again = await connect({
    url: s.url,
    auth: { tokenStore: fileTokenStore(dir), authorize: async () => Promise.reject(new Error("no sign-in expected")) },
  });
  expect(text(await again.callTool("delete_file", {}))).toBe("deleted");
  await again.close();
}, 60_000);

test("client credentials for headless use: no browser, the client's own identity", async () => {
  const c = await connect({
    url: s.url,
    auth: { grant: "client_credentials", clientId: "svc", clientSecret: SECRET, tokenStore: fileTokenStore(tempDir()) },
  });
  expect(JSON.parse(text(await c.callTool("whoami", {})))).toMatchObject({
    subject: "svc",
    clientId: "svc",
    scopes: ["mcp:use"],
  });
  await c.close();
}, 60_000);

test("a sign-in that fails says why, and the call fails with it instead of looping", async () => {
  const err = await connect({
    url: s.url,
    auth: {
      tokenStore: fileTokenStore(tempDir()),
      authorize: async (u) =>
        `${new URL(u).searchParams.get("redirect_uri")}?error=access_denied&state=${new URL(u).searchParams.get("state")}&iss=${encodeURIComponent(idp.issuer)}`,
    },
  }).catch((e: Error) => e);
  expect(err).toBeInstanceOf(Error);
  expect(String((err as Error).message)).toContain("access_denied");
}, 60_000);
