// http.auth and tool({ scopes }) mistakes fail at start with what to change.
import { expect, test } from "bun:test";
import { AuthOptionsError, resolveAuth } from "../../src/auth/options.ts";
import { missingScopes } from "../../src/shared/auth.ts";
import { tool } from "../../src/index.ts";

test("http.auth mistakes name the key and what to change", () => {
  const bad: [unknown, boolean, RegExp][] = [
    [{}, true, /needs "issuer" \(a URL\) or "issuers"/],
    [{ issuer: "https://a", issuers: ["https://b"] }, true, /one of them/],
    [{ issuer: "http://login.example.com" }, true, /https URL \(http only on loopback\)/],
    [{ issuer: "not a url" }, true, /absolute URL/],
    [{ issuer: "https://a/#x" }, true, /without a fragment/],
    [{ issuers: [] }, true, /non-empty array/],
    [{ issuer: "https://a" }, false, /resource is required when the server is not bound to loopback/],
    [{ issuer: "https://a", scopes: ["a b"] }, true, /scope names/],
    [{ issuer: "https://a", audience: [] }, true, /audience/],
    [{ issuer: "https://a", introspection: { url: "https://a/i", clientId: "x" } }, true, /introspection.clientSecret/],
    [{ issuer: "https://a", scopeFailure: "403" }, true, /"http" or "result"/],
    [{ issuer: "https://a", isuer: "https://a" }, true, /"http.auth.isuer" is not a known key/],
  ];
  for (const [o, loopback, message] of bad) expect(() => resolveAuth(o as never, loopback)).toThrow(message);
  expect(() => resolveAuth({} as never, true)).toThrow(AuthOptionsError);
  expect(
    resolveAuth({ issuer: "https://a", resource: "https://mcp.example.com/mcp", audience: "api://x" }, false),
  ).toMatchObject({
    issuers: ["https://a"],
    audience: ["api://x"],
    scopes: [],
    clockSkewSeconds: 30,
    scopeFailure: "http",
  });
});

test("tool({ scopes }) must be an array of scope names", () => {
  expect(() => tool({ name: "t", description: "", scopes: "files:write" as never, run: () => "" })).toThrow(
    /scopes must be an array of OAuth scope names/,
  );
  expect(() => tool({ name: "t", description: "", scopes: ["files write"], run: () => "" })).toThrow(
    /scopes must be an array/,
  );
  expect(tool({ name: "t", description: "", scopes: ["files:write"], run: () => "" }).definition.scopes).toEqual([
    "files:write",
  ]);
});

test("scopes apply to OAuth callers only: stdio and the static token are not scope-checked", () => {
  expect(missingScopes(undefined, ["a"])).toEqual([]);
  expect(missingScopes({ token: "t" }, ["a"])).toEqual([]);
  expect(missingScopes({ token: "t", scopes: ["a"] }, ["a", "b"])).toEqual(["b"]);
});
