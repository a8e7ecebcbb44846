// openapiTools() in "tools" mode against the request-echo API: schemas, names, and the exact requests.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openapiTools, OpenApiError, type Tool } from "../../src/index.ts";
import { TOOL_NAME } from "../../src/tools/name.ts";
import { startEcho, type Echo } from "./echo-server.ts";

const DOC = new URL("../fixtures/openapi/echo.yaml", import.meta.url).pathname;
let echo: Echo;
let tools: Tool[];
const byName = (n: string) => tools.find((t) => t.name === n)!;
/** Calls a tool directly; returns the echo's view of the request. */
async function sent(
  name: string,
  args: Record<string, unknown>,
): Promise<{ method: string; path: string; query: string; headers: Record<string, string>; body: string }> {
  const r = (await byName(name)(args)) as { structuredContent?: any; content: any[]; isError?: boolean };
  if (r.isError) throw new Error(r.content[0].text);
  return r.structuredContent;
}

beforeAll(async () => {
  echo = startEcho();
  process.env.ECHO_T_KEY = "k-123";
  process.env.ECHO_T_TOKEN = "t-456";
  tools = await openapiTools(DOC, {
    baseUrl: echo.url,
    auth: { key: { env: "ECHO_T_KEY" }, token: { env: "ECHO_T_TOKEN" } },
    maxResponseBytes: 64 * 1024,
  });
});
afterAll(() => echo.stop());

test("one tool per operation (x-mcp: false left out), snake_case names from operationId or method and path", () => {
  expect(tools.map((t) => t.name)).toEqual([
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
  for (const t of tools) expect(t.name).toMatch(TOOL_NAME);
  expect(byName("get_item").definition.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
  expect(byName("delete_item").definition.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
  expect(byName("replace_item").definition.annotations).toMatchObject({ idempotentHint: true, readOnlyHint: false });
  expect(byName("get_item").definition.title).toBe("Get one item");
});

test("input schemas: every location flattened, integer kept, nullable a union, readOnly left out, collisions suffixed, recursion as $defs", () => {
  const get = byName("get_item").inputSchema as any;
  expect(Object.keys(get.properties)).toEqual(["itemId", "tags", "ids", "filter", "limit", "X-Trace-Id", "session"]);
  expect(get.required).toEqual(["itemId"]);
  expect(get.additionalProperties).toBe(false);
  expect(get.properties.limit).toEqual({ type: "integer", minimum: 1, maximum: 100, default: 10 });
  expect(get.properties.ids.items).toEqual({ type: "integer" });
  expect(get.properties["X-Trace-Id"].pattern).toBe("^[a-f0-9]+$");

  const put = byName("replace_item").inputSchema as any;
  expect(Object.keys(put.properties)).toEqual(["itemId__path", "name", "price", "status", "itemId__body"]);
  expect(put.properties.price.type).toEqual(["number", "null"]);
  expect(put.properties.status).toEqual({ type: "string", enum: ["available", "sold"], default: "available" });
  expect(put.required).toEqual(["itemId__path", "name"]);

  const folder = byName("create_folder").inputSchema as any;
  expect(folder.properties.children).toEqual({ type: "array", items: { $ref: "#/$defs/Folder" } });
  expect(folder.$defs.Folder.properties.children.items).toEqual({ $ref: "#/$defs/Folder" });

  expect((byName("put_note").inputSchema as any).properties.body).toEqual({ type: "string" });
  expect((byName("post_batch").inputSchema as any).properties.body).toEqual({
    type: "array",
    items: { type: "integer" },
  });
});

test("path, query styles, header and cookie arrive exactly as encoded", async () => {
  const e = await sent("get_item", {
    itemId: "a b/ç?#",
    tags: ["x y", "z"],
    ids: [1, 2, 3],
    filter: { color: "red", size: 2 },
    limit: 5,
    "X-Trace-Id": "beef",
    session: "s 1",
  });
  expect(e.method).toBe("GET");
  expect(e.path).toBe("/v1/items/a%20b%2F%C3%A7%3F%23");
  expect(e.query).toBe("tags=x%20y&tags=z&ids=1,2,3&filter%5Bcolor%5D=red&filter%5Bsize%5D=2&limit=5");
  expect(e.headers["x-trace-id"]).toBe("beef");
  expect(e.headers.cookie).toBe("session=s%201");
  expect(e.headers["x-api-key"]).toBeUndefined();
  expect(e.headers.authorization).toBeUndefined();
});

test("bodies by content type: JSON object from flattened fields, text, a JSON array, a form", async () => {
  const put = await sent("replace_item", { itemId__path: "7", name: "lamp", price: null, itemId__body: "other" });
  expect(put.method).toBe("PUT");
  expect(put.path).toBe("/v1/items/7");
  expect(put.headers["content-type"]).toBe("application/json");
  expect(JSON.parse(put.body)).toEqual({ name: "lamp", price: null, itemId: "other" });

  const note = await sent("put_note", { id: 3, body: "hello\nworld" });
  expect(note.headers["content-type"]).toBe("text/plain");
  expect(note.body).toBe("hello\nworld");

  const batch = await sent("post_batch", { body: [1, 2] });
  expect(batch.body).toBe("[1,2]");

  const form = await sent("login", { user: "ana maria", remember: true });
  expect(form.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  expect(form.body).toBe("user=ana+maria&remember=true");

  const tree = await sent("create_folder", { name: "root", children: [{ name: "a", children: [{ name: "b" }] }] });
  expect(JSON.parse(tree.body)).toEqual({ name: "root", children: [{ name: "a", children: [{ name: "b" }] }] });
});

test("arguments are validated before any request is sent", async () => {
  await expect(byName("get_item")({ itemId: "1", limit: 1.5 })).rejects.toThrow(/limit/);
  await expect(byName("get_item")({ itemId: "1", nope: 1 })).rejects.toThrow(/nope: unexpected key/);
  await expect(byName("replace_item")({ itemId__path: "1", name: "x", id: 5 })).rejects.toThrow(/id: unexpected key/); // readOnly is not an input
  await expect(byName("create_folder")({ name: "r", children: [{ children: [] }] })).rejects.toThrow(/name/);
});

test("security: the scheme's header only on the operations that require it, from the environment at call time", async () => {
  expect((await sent("with_api_key", {})).headers["x-api-key"]).toBe("k-123");
  const bearer = await sent("with_bearer", {});
  expect(bearer.headers.authorization).toBe("Bearer t-456");
  expect(bearer.headers["x-api-key"]).toBeUndefined();
  process.env.ECHO_T_KEY = "k-789";
  expect((await sent("with_api_key", {})).headers["x-api-key"]).toBe("k-789");
});

test("responses: 2xx JSON is structured plus compact text; 404 is isError with the status; a 5 MB body is cut", async () => {
  const ok = (await byName("get_item")({ itemId: "1" })) as any;
  expect(JSON.parse(ok.content[0].text)).toEqual(ok.structuredContent);
  const miss = (await byName("missing")({})) as any;
  expect(miss.isError).toBe(true);
  expect(miss.content[0].text).toStartWith("HTTP 404 Not Found from GET ");
  expect(miss.content[0].text).toContain("no such thing here");
  const big = (await byName("big")({})) as any;
  expect(big.isError).toBeUndefined();
  expect(big.structuredContent).toBeUndefined();
  expect(big.content[0].text.length).toBeLessThan(70 * 1024);
  expect(big.content[0].text).toContain("[truncated: the response body is over 65536 bytes");
  const del = (await byName("delete_item")({ itemId: "9" })) as any;
  expect(del.structuredContent.method).toBe("DELETE");
});

test("curation: globs on operationId, tags, methods, path patterns, exclude and read-only", async () => {
  const names = async (o: object) => (await openapiTools(DOC, { baseUrl: echo.url, ...o })).map((t) => t.name);
  expect(await names({ include: ["*Item"] })).toEqual(["get_item", "replace_item", "delete_item"]);
  expect(await names({ include: ["tag:folders"] })).toEqual(["create_folder"]);
  expect(await names({ include: ["path:/secure/*"] })).toEqual(["with_api_key", "with_bearer"]);
  expect(await names({ methods: ["put"] })).toEqual(["replace_item", "put_note"]);
  expect(await names({ readOnly: true, exclude: ["big", "tag:items"] })).toEqual([
    "with_api_key",
    "with_bearer",
    "missing",
  ]);
  expect(await names({ include: ["login"], names: { login: "sign_in" } })).toEqual(["sign_in"]);
});

test("names are stable across runs and valid; long ones are cut with a hash, collisions numbered", async () => {
  const doc = {
    openapi: "3.1.0",
    info: { title: "n", version: "1" },
    paths: Object.fromEntries(
      ["a", "b"]
        .map((x): [string, unknown] => [
          `/${x}`,
          {
            get: {
              operationId: `list_everything_about_the_very_long_resource_named_${x}_please`,
              responses: { 200: { description: "ok" } },
            },
          },
        ])
        .concat([
          [
            "/c",
            {
              get: { operationId: "same", responses: { 200: { description: "ok" } } },
              post: { operationId: "same", responses: { 200: { description: "ok" } } },
            },
          ],
          [
            "/d/{id}",
            {
              get: {
                parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
                responses: { 200: { description: "ok" } },
              },
            },
          ],
        ]),
    ),
  };
  const one = (await openapiTools(doc, { baseUrl: "http://x" })).map((t) => t.name);
  const two = (await openapiTools(doc, { baseUrl: "http://x" })).map((t) => t.name);
  expect(one).toEqual(two);
  expect(one[0]).toMatch(/^list_everything_about_the_very_long_resource_nam_[0-9a-f]{8}$/);
  expect(one[0]).not.toBe(one[1]);
  expect(one.slice(2)).toEqual(["same", "same_2", "get_d_id"]);
  for (const n of one) expect(n).toMatch(TOOL_NAME);
});

test("a document that cannot be used fails with the place and the reason", async () => {
  const bad = `${import.meta.dir}/../../.test-build/bad.yaml`;
  await Bun.write(bad, "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a: [unclosed\n");
  await expect(openapiTools(bad)).rejects.toThrow(/bad\.yaml:\d+:\d+: cannot parse the document/);
  const invalid = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: { "/d/{id}": { get: { responses: { 200: { description: "ok" } } } } },
  };
  await expect(openapiTools(invalid, { baseUrl: "http://x" })).rejects.toThrow(
    /invalid OpenAPI document at \/paths\/~1d~1\{id\}\/get: Declared path parameter "id"/,
  );
  await expect(openapiTools({ swagger: "2.0" })).rejects.toThrow(
    /OpenAPI 3\.0 or 3\.1 is supported, found Swagger 2\.0/,
  );
  await expect(
    openapiTools({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/a": {
          get: {
            responses: {
              200: {
                description: "ok",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } },
              },
            },
          },
        },
      },
    }),
  ).rejects.toThrow(/Nope/);
  const net = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/a": {
        get: { parameters: [{ $ref: "https://example.com/p.yaml#/Limit" }], responses: { 200: { description: "ok" } } },
      },
    },
  };
  await expect(openapiTools(net, { baseUrl: "http://x" })).rejects.toThrow(
    /points to the network; network \$refs are read only with allowNetwork/,
  );
  await expect(
    openapiTools({ openapi: "3.1.0", info: { title: "t", version: "1" }, servers: [{ url: "/api" }], paths: {} }),
  ).rejects.toThrow(/is relative: pass baseUrl/);
  await expect(openapiTools(DOC, { baseUrl: "http://x", auth: { nope: { env: "X" } } })).rejects.toBeInstanceOf(
    OpenApiError,
  );
});
