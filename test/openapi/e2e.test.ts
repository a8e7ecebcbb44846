// End to end: a real mcpbin server process serving openapiTools() over stdio, driven by the official
// SDK v1 client (every response validated against the official schema), calling the request-echo API.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { BUN, ROOT } from "../helpers/proc.ts";
import { startEcho, type Echo } from "./echo-server.ts";
import { validatingStdioClient } from "./validating-stdio.ts";

let echo: Echo;
let tools: { client: Client; checked: { responses: number } };
let dynamic: { client: Client; checked: { responses: number } };

beforeAll(async () => {
  echo = startEcho();
  const env = { ECHO_URL: echo.url, ECHO_KEY: "secret-key", ECHO_TOKEN: "secret-token" };
  [tools, dynamic] = await Promise.all([
    validatingStdioClient(BUN, [`${ROOT}/test/openapi/echo-mcp.ts`], env),
    validatingStdioClient(BUN, [`${ROOT}/test/openapi/echo-mcp.ts`], { ...env, ECHO_MODE: "dynamic" }),
  ]);
}, 60_000);
afterAll(async () => {
  await tools?.client.close();
  await dynamic?.client.close();
  echo?.stop();
});

test("tools/list through the SDK: one valid tool per operation with its annotations", async () => {
  const { tools: list } = await tools.client.listTools();
  expect(list.map((t) => t.name)).toEqual([
    "get_item",
    "replace_item",
    "delete_item",
    "create_folder",
    "put_note",
    "post_batch",
    "login",
    "with_api_key",
    "with_bearer",
    "missing",
    "big",
  ]);
  const get = list.find((t) => t.name === "get_item")!;
  expect(get.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
  expect((get.inputSchema.properties as any).limit.type).toBe("integer");
  expect(JSON.stringify(list.find((t) => t.name === "create_folder")!.inputSchema)).toContain(
    '"$ref":"#/$defs/Folder"',
  );
});

test("a tool call sends the exact request; the echo's answer is structuredContent", async () => {
  const r = await tools.client.callTool({
    name: "get_item",
    arguments: { itemId: "a/b", tags: ["1", "2"], "X-Trace-Id": "ab12" },
  });
  expect(r.isError).toBeFalsy();
  const e = r.structuredContent as any;
  expect(e).toMatchObject({ method: "GET", path: "/v1/items/a%2Fb", query: "tags=1&tags=2" });
  expect(e.headers["x-trace-id"]).toBe("ab12");
  expect(JSON.parse((r.content as any)[0].text)).toEqual(e);
});

test("credentials go only where the operation's security asks, and bad arguments never reach the API", async () => {
  const key = (await tools.client.callTool({ name: "with_api_key", arguments: {} })).structuredContent as any;
  expect(key.headers["x-api-key"]).toBe("secret-key");
  expect(key.headers.authorization).toBeUndefined();
  const open = (await tools.client.callTool({ name: "get_item", arguments: { itemId: "1" } })).structuredContent as any;
  expect(open.headers["x-api-key"]).toBeUndefined();
  expect(open.headers.authorization).toBeUndefined();
  const bad = await tools.client.callTool({ name: "get_item", arguments: { itemId: "1", limit: "ten" } });
  expect(bad.isError).toBe(true);
  expect((bad.content as any)[0].text).toStartWith("Invalid arguments for tool get_item:");
});

test("a 404 is an isError result with the status; a 5 MB body comes back cut", async () => {
  const miss = await tools.client.callTool({ name: "missing", arguments: {} });
  expect(miss.isError).toBe(true);
  expect((miss.content as any)[0].text).toContain("404");
  const big = await tools.client.callTool({ name: "big", arguments: {} });
  expect((big.content as any)[0].text).toContain("[truncated: the response body is over 65536 bytes");
  expect(tools.checked.responses).toBeGreaterThanOrEqual(6);
});

test("dynamic mode: three tools; list, describe, and a call validated before sending", async () => {
  const { tools: list } = await dynamic.client.listTools();
  expect(list.map((t) => t.name)).toEqual(["list_operations", "describe_operation", "call_operation"]);
  const found = await dynamic.client.callTool({ name: "list_operations", arguments: { search: "item" } });
  expect((found.structuredContent as any).operations.map((o: any) => o.name)).toEqual([
    "get_item",
    "replace_item",
    "delete_item",
  ]);
  const d = await dynamic.client.callTool({ name: "describe_operation", arguments: { name: "replace_item" } });
  expect((d.structuredContent as any).inputSchema.required).toEqual(["itemId__path", "name"]);
  const bad = await dynamic.client.callTool({
    name: "call_operation",
    arguments: { name: "replace_item", arguments: { itemId__path: "1" } },
  });
  expect(bad.isError).toBe(true);
  expect((bad.content as any)[0].text).toContain("nothing was sent");
  expect((bad.content as any)[0].text).toContain("name: required");
  const ok = await dynamic.client.callTool({
    name: "call_operation",
    arguments: { name: "replace_item", arguments: { itemId__path: "1", name: "n" } },
  });
  expect(ok.structuredContent as any).toMatchObject({ method: "PUT", path: "/v1/items/1", body: '{"name":"n"}' });
  expect(dynamic.checked.responses).toBeGreaterThanOrEqual(5);
});
