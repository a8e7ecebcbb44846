/** @module docs/auth.md: its server built and served behind oidc-provider, and its client run from source signing in to it the way a person would (the URL on stderr, the browser's redirect to the loopback listener). */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN } from "../helpers/proc.ts";
import { StreamText } from "../helpers/wait.ts";
import { startIdp, type Idp } from "../helpers/idp.ts";
import { HttpProcess, META, modernHeaders, post } from "../http/helpers.ts";
import { buildExample, removeExamples, writeExample } from "./examples.ts";

setDefaultTimeout(120_000);
let idp: Idp;
let server: HttpProcess;
let config: string;

beforeAll(async () => {
  config = mkdtempSync(join(tmpdir(), "mcpbin-doc-auth-config-"));
  idp = await startIdp({ scopes: ["mcp:use", "files:write"] });
  const { bin } = await buildExample("auth", ["server.ts", "--outfile", "dist/files"], "dist/files");
  server = await HttpProcess.start([bin], { env: { OAUTH_ISSUER: idp.issuer } });
});
afterAll(async () => {
  server?.kill();
  await idp?.stop();
  removeExamples();
  rmSync(config, { recursive: true, force: true });
});

test("the server: metadata, the 401 challenge, and a client-credentials token with files:write sees and calls delete_file", async () => {
  const origin = new URL(server.url).origin;
  const md = await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json();
  expect(md).toEqual({
    resource: server.url,
    authorization_servers: [idp.issuer],
    scopes_supported: ["mcp:use", "files:write"],
    bearer_methods_supported: ["header"],
    resource_name: "files",
  });
  const anonymous = await post(
    server.url,
    { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } },
    modernHeaders("tools/list"),
  );
  expect(anonymous.headers.get("www-authenticate")).toBe(
    `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:use"`,
  );
  const token = await idp.token({ scope: "mcp:use files:write", resource: server.url });
  const r = await post(
    server.url,
    {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "delete_file", arguments: { path: "a.txt" }, _meta: META },
    },
    { ...modernHeaders("tools/call", "delete_file"), authorization: `Bearer ${token}` },
  );
  expect(r.json.result.content).toEqual([{ type: "text", text: "deleted a.txt" }]);
});

test("the client: signs in at the URL it prints, through the IdP's login and consent, and calls whoami", async () => {
  const dir = writeExample("auth");
  const p = Bun.spawn([BUN, join(dir, "client.ts"), server.url], {
    cwd: dir,
    env: { ...process.env, MCPBIN_CONFIG_DIR: config, MCPBIN_NO_BROWSER: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const err = new StreamText(p.stderr);
  const printed = await err.waitFor(/^\s+(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m, 20_000);
  const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m.exec(printed)![1]!;
  const back = await idp.consent(url);
  expect(back.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(await (await fetch(back)).text()).toContain("Signed in");
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  expect(code).toBe(0);
  const who = JSON.parse(JSON.parse(out)[0].text);
  expect(who).toMatchObject({ subject: "alice", scopes: ["mcp:use"] });
});
