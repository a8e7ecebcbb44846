// TokenVerifier in this process against two real OpenID providers: several trusted issuers, each token checked
// against its own issuer's keys; an issuer left out of the list is refused; a token past its exp (the clock of
// src/auth/clock.ts moved, not waited for) is refused as expired.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { clock } from "../../src/auth/clock.ts";
import { resolveAuth } from "../../src/auth/options.ts";
import { TokenError, TokenVerifier } from "../../src/auth/verify.ts";
import { SECRET, startIdp, type Idp } from "../helpers/idp.ts";

const RESOURCE = "http://127.0.0.1:9/mcp";
let a: Idp;
let b: Idp;
beforeAll(async () => {
  [a, b] = await Promise.all([startIdp({ scopes: ["mcp:use"] }), startIdp({ scopes: ["mcp:use"] })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

test("issuers: a token of each trusted issuer is verified with that issuer's keys", async () => {
  const v = new TokenVerifier(resolveAuth({ issuers: [a.issuer, b.issuer] }, true));
  for (const idp of [a, b]) {
    const info = await v.verify(await idp.token({ scope: "mcp:use", resource: RESOURCE }), RESOURCE);
    expect(info).toMatchObject({ issuer: idp.issuer, subject: "svc", clientId: "svc", scopes: ["mcp:use"] });
  }
  const onlyA = new TokenVerifier(resolveAuth({ issuer: a.issuer }, true));
  const fromB = await b.token({ scope: "mcp:use", resource: RESOURCE });
  await expect(onlyA.verify(fromB, RESOURCE)).rejects.toThrow(TokenError);
  // audience: an API identifier instead of the resource URL.
  const api = new TokenVerifier(resolveAuth({ issuer: a.issuer, audience: "api://files" }, true));
  expect((await api.verify(await a.token({ scope: "mcp:use", resource: "api://files" }), RESOURCE)).issuer).toBe(
    a.issuer,
  );
  await expect(api.verify(await a.token({ scope: "mcp:use", resource: RESOURCE }), RESOURCE)).rejects.toThrow(
    "another audience",
  );
});

test("an expired token: accepted up to a second before its exp plus the skew, refused as expired from then on", async () => {
  const token = await a.token({ scope: "mcp:use", resource: RESOURCE });
  const exp = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).exp as number;
  const wall = clock.now;
  try {
    for (const skew of [0, 30]) {
      const v = new TokenVerifier(resolveAuth({ issuer: a.issuer, clockSkewSeconds: skew }, true));
      clock.now = () => (exp + skew - 1) * 1000;
      expect((await v.verify(token, RESOURCE)).issuer).toBe(a.issuer);
      clock.now = () => (exp + skew) * 1000;
      await expect(v.verify(token, RESOURCE)).rejects.toThrow("the token has expired");
    }
  } finally {
    clock.now = wall;
  }
});

test("introspection: an answer that names no audience is refused, as a JWT without aud is", async () => {
  const v = new TokenVerifier(
    resolveAuth(
      {
        issuer: a.issuer,
        resource: RESOURCE,
        introspection: { url: `${a.issuer}/token/introspection`, clientId: "introspector", clientSecret: SECRET },
      },
      true,
    ),
  );
  const res = await fetch(`${a.issuer}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`opaque:${SECRET}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "mcp:use" }),
  });
  const unbound = ((await res.json()) as { access_token: string }).access_token;
  await expect(v.verify(unbound, RESOURCE)).rejects.toThrow("the token names no audience");
  const bound = await a.token({ scope: "mcp:use", resource: RESOURCE, client: "opaque" });
  expect((await v.verify(bound, RESOURCE)).clientId).toBe("opaque");
});
