// The mcpbin client's kept tokens over time, against oidc-provider (5-minute access tokens; the client's clock is
// moved past them, src/auth/clock.ts, instead of waiting): an expired token is refreshed before use and the rotated refresh token replaces the old one on disk; a registration the
// server no longer knows (invalid_client) is dropped and the client registers again instead of looping.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "../../src/index.ts";
import { clock } from "../../src/auth/clock.ts";
import { fileTokenStore } from "../../src/auth/token-store.ts";
import { startIdp, type Idp } from "../helpers/idp.ts";
import { HttpProcess } from "../http/helpers.ts";

let idp: Idp;
let s: HttpProcess;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcpbin-oauth-refresh-"));
  idp = await startIdp({ scopes: ["mcp:use", "files:write"], ttl: 300 });
  s = await HttpProcess.source("test/fixtures/servers/oauth.ts", {
    env: { OAUTH_ISSUERS: idp.issuer, OAUTH_SKEW: "0" },
  });
}, 60_000);
afterAll(async () => {
  s?.kill();
  await idp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const kept = () => {
  const folder = join(dir, "oauth");
  const file = join(
    folder,
    readdirSync(folder).find((n) => n.endsWith(".json"))!,
  );
  return { file, entry: JSON.parse(readFileSync(file, "utf8")) };
};

test("an expired token is refreshed before use; the rotated refresh token is saved; a forgotten registration is replaced", async () => {
  let signIns = 0;
  const auth = { tokenStore: fileTokenStore(dir), authorize: (u: URL) => (signIns++, idp.consent(u)) };
  const c = await connect({ url: s.url, auth });
  expect(signIns).toBe(1);
  const first = kept().entry;
  expect(first.tokens.refresh_token).toBeString();
  const wall = clock.now;
  clock.now = () => wall() + 300_000; // the access token's 300 s have passed, for the client
  try {
    // Refreshed, not signed in again; the refresh token rotated.
    expect((await c.callTool("whoami", {})).isError).toBeFalsy();
  } finally {
    clock.now = wall;
  }
  expect(signIns).toBe(1);
  const second = kept().entry;
  expect(second.tokens.access_token).not.toBe(first.tokens.access_token);
  expect(second.tokens.refresh_token).not.toBe(first.tokens.refresh_token);
  await c.close();

  // The server forgot the registration: the refresh gets invalid_client, the client registers anew and signs in.
  const { file, entry } = kept();
  writeFileSync(
    file,
    JSON.stringify({
      ...entry,
      client: { ...entry.client, client_id: "forgotten" },
      tokens: { ...entry.tokens, expires_at: 1 },
    }),
  );
  const again = await connect({ url: s.url, auth });
  expect((await again.callTool("whoami", {})).isError).toBeFalsy();
  expect(signIns).toBe(2);
  expect(kept().entry.client.client_id).not.toBe("forgotten");
  await again.close();
}, 60_000);
