// `mcpbin proxy --url URL --oauth`: a remote MCP server behind oidc-provider served here over stdio to an
// official SDK client. The proxy prints the sign-in URL on stderr and waits on its loopback listener; the
// person (here: the test) signs in; the remote tools appear. `mcpbin auth list|logout` show and forget it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { SECRET, startIdp, type Idp } from "../helpers/idp.ts";
import { HttpProcess } from "../http/helpers.ts";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { closedAfterEach, serversFile, v2Front } from "../client/front.ts";
import { pumpLines, stderrLines } from "../client/lines.ts";

let idp: Idp;
let s: HttpProcess;
let dir: string;
const closers = closedAfterEach();
const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcpbin-proxy-oauth-"));
  idp = await startIdp({ scopes: ["mcp:use", "files:write"] });
  s = await HttpProcess.source("test/fixtures/servers/oauth.ts", { env: { OAUTH_ISSUERS: idp.issuer } });
}, 60_000);
afterAll(async () => {
  s?.kill();
  await idp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...(process.env as Record<string, string>), MCPBIN_CONFIG_DIR: dir, MCPBIN_NO_BROWSER: "1" });
const cli = async (...args: string[]) => {
  const p = Bun.spawn([BUN, MCPBIN, ...args], { env: env(), stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  return { out, code };
};

test("proxy --url --oauth: sign in at the printed URL, then the remote tools are served over stdio; auth list and logout", async () => {
  const transport = new StdioV1({
    command: BUN,
    args: [MCPBIN, "proxy", "--url", s.url, "--oauth"],
    env: env(),
    stderr: "pipe",
  });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
  // The proxy answers initialize once its upstream is ready (or after its start timeout): sign in meanwhile.
  const connected = client.connect(transport);
  closers.push(() => client.close());
  const line = await stderr.next(/^\s+http:\/\/127\.0\.0\.1:\d+\/auth\?/);
  const authorization = new URL(line.trim());
  expect(authorization.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  // The browser: the IdP's login and consent, then the redirect to the proxy's loopback listener.
  const back = await idp.consent(authorization);
  const page = await fetch(back);
  expect(await page.text()).toContain("Signed in");
  await connected;
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["whoami"]);
  const who = await client.callTool({ name: "whoami", arguments: {} });
  expect(JSON.parse((who.content as { text: string }[])[0]!.text)).toMatchObject({
    subject: "alice",
    scopes: ["mcp:use"],
  });

  const listedAuth = await cli("auth", "list");
  expect(listedAuth.code).toBe(0);
  expect(listedAuth.out).toContain(s.url);
  expect(listedAuth.out).toContain(`issuer ${idp.issuer}`);
  expect(listedAuth.out).toContain("signed in (mcp:use");
  const out = await cli("auth", "logout", s.url);
  expect(out.out).toContain(`signed out of ${s.url}`);
  expect((await cli("auth", "list")).out).toContain("no sign-ins kept");
}, 60_000);

test('a servers-file entry { url, oauth: { grant: "client_credentials", … } }: a headless upstream signs in by itself', async () => {
  const file = serversFile({
    remote: { url: s.url, oauth: { grant: "client_credentials", clientId: "svc", clientSecret: SECRET } },
  });
  const { client } = await v2Front([BUN, MCPBIN, "proxy", "--servers", file], { env: env(), closers });
  const who = await client.callTool({ name: "whoami", arguments: {} });
  expect(JSON.parse((who.content as { text: string }[])[0]!.text)).toMatchObject({
    subject: "svc",
    clientId: "svc",
    scopes: ["mcp:use"],
  });
  rmSync(dirname(file), { recursive: true, force: true });
}, 60_000);
