// Custom headers from tool parameters (2026-07-28 Streamable HTTP, x-mcp-header): the annotations reach
// tools/list, and the server refuses (400, -32020) a call whose Mcp-Param-* headers are missing, malformed or
// disagree with its arguments, as the official conformance scenario http-custom-header-server-validation does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { HttpProcess, META, modernHeaders, post } from "./helpers.ts";

let s: HttpProcess;
beforeAll(async () => {
  s = await HttpProcess.source("test/fixtures/servers/param-headers.ts");
}, 60_000);
afterAll(() => s?.kill());

const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
  post(
    s.url,
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "execute_sql", arguments: args, _meta: META } },
    { ...modernHeaders("tools/call", "execute_sql"), ...headers },
  );

test("tools/list carries the x-mcp-header annotations", async () => {
  const r = await post(
    s.url,
    { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } },
    modernHeaders("tools/list"),
  );
  const props = r.json.result.tools[0].inputSchema.properties;
  expect(props.region["x-mcp-header"]).toBe("Region");
  expect(props.target.properties.db["x-mcp-header"]).toBe("Db");
});

test("headers that agree with the arguments: plain, Base64, integers as numbers, booleans, nested; absent values need no header", async () => {
  const ok = await call({ region: "us-west1", query: "q" }, { "mcp-param-region": "us-west1" });
  expect([ok.status, ok.json.result?.content[0].text]).toEqual([200, "us-west1: q"]);
  const b64 = await call(
    { region: "Hello, 世界", query: "q", priority: 42, verbose: false, target: { db: " padded " } },
    {
      "mcp-param-region": `=?base64?${Buffer.from("Hello, 世界").toString("base64")}?=`,
      "mcp-param-priority": "42.0",
      "mcp-param-verbose": "false",
      "mcp-param-db": `=?base64?${Buffer.from(" padded ").toString("base64")}?=`,
    },
  );
  expect(b64.status).toBe(200);
  expect(b64.json.result.isError).toBeUndefined();
  // A value without the full sentinel is a literal.
  const literal = await call({ region: "=?base64?SGVsbG8=", query: "q" }, { "mcp-param-region": "=?base64?SGVsbG8=" });
  expect(literal.status).toBe(200);
  const nul = await call({ region: "r", query: "q", verbose: null }, { "mcp-param-region": "r" });
  expect(nul.status).toBe(200);
});

test("a missing, different, malformed or unexpected header is 400 with -32020, and the tool does not run", async () => {
  const cases: [Record<string, unknown>, Record<string, string>, RegExp][] = [
    [{ region: "us-west1", query: "q" }, {}, /the Mcp-Param-Region header is required/],
    [{ region: "us-west1", query: "q" }, { "mcp-param-region": "eu-west1" }, /differs from arguments.region/],
    [{ region: "Hello", query: "q" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }, /not valid =\?base64\?/],
    [{ region: "Hello", query: "q" }, { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }, /not valid =\?base64\?/],
    [
      { region: "r", query: "q", priority: 7 },
      { "mcp-param-region": "r", "mcp-param-priority": "8" },
      /Mcp-Param-Priority "8" differs/,
    ],
    [
      { region: "r", query: "q", verbose: true },
      { "mcp-param-region": "r", "mcp-param-verbose": "True" },
      /Mcp-Param-Verbose/,
    ],
    [
      { region: "r", query: "q" },
      { "mcp-param-region": "r", "mcp-param-verbose": "true" },
      /Mcp-Param-Verbose is sent but arguments.verbose has no value/,
    ],
    [
      { region: "r", query: "q", target: { db: "a" } },
      { "mcp-param-region": "r", "mcp-param-db": "b" },
      /differs from arguments.target.db/,
    ],
  ];
  for (const [args, headers, message] of cases) {
    const r = await call(args, headers);
    expect({ status: r.status, code: r.json.error?.code }).toEqual({ status: 400, code: -32020 });
    expect(r.json.error.message).toMatch(message);
  }
});

test("an inputSchema whose x-mcp-header breaks the rules fails at tool() with what is wrong", async () => {
  const { tool } = await import("../../src/index.ts");
  const bad = (properties: Record<string, unknown>) => () =>
    tool({ name: "t", description: "d", inputSchema: { type: "object", properties }, run: () => "" });
  expect(bad({ score: { type: "number", "x-mcp-header": "Score" } })).toThrow(
    /only string, integer and boolean may be mirrored/,
  );
  expect(
    bad({ a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "region" } }),
  ).toThrow(/used twice/);
  expect(bad({ v: { type: "string", "x-mcp-header": "My Region" } })).toThrow(/not an HTTP field-name token/);
  expect(bad({ list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } })).toThrow(
    /only allowed on a property reached through properties/,
  );
  expect(bad({ v: { type: "string", "x-mcp-header": "Region" } })).not.toThrow();
});
