// One glob dialect: openapiTools()'s include/exclude match as tool filters and upstream filters do (Bun.Glob:
// case-sensitive, `{a,b}`, `[a-z]`), on the operationId, the tool name, `tag:` and `path:`.
import { expect, test } from "bun:test";
import { openapiTools } from "../../src/index.ts";
import { passesFilters } from "../../src/client/upstream-tools.ts";

const get = (operationId: string, tags: string[] = []) => ({
  get: { operationId, tags, responses: { 200: { description: "ok" } } },
});
const DOC = {
  openapi: "3.1.0",
  info: { title: "glob", version: "1" },
  servers: [{ url: "https://api.example.test" }],
  paths: {
    "/items": get("list-every-item", ["Items"]),
    "/items/{id}": {
      get: {
        operationId: "get-item",
        tags: ["items"],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { 200: { description: "ok" } },
      },
    },
    "/users": get("list-users", ["users"]),
    "/a1": get("a1"),
    "/b2": get("b2"),
  },
};
const names = async (include?: string[], exclude?: string[]) =>
  (await openapiTools(DOC, { include, exclude })).map((t) => t.name);

test("one glob dialect: OpenAPI curation is case-sensitive like tool filters", async () => {
  expect(await names(["*Item*"])).toEqual([]);
  expect(passesFilters("list-every-item", ["*Item*"], undefined)).toBe(false);
  expect(await names(["*item*"])).toEqual(["list_every_item", "get_item"]);
  expect(await names(["tag:Items"])).toEqual(["list_every_item"]);
});

test("one glob dialect: braces and classes work in include, exclude, tag: and path:", async () => {
  expect(await names(["{a1,b2}"])).toEqual(["a1", "b2"]);
  expect(await names(["[a-a][0-9]"])).toEqual(["a1"]);
  expect(await names(undefined, ["list-{users,every-item}"])).toEqual(["get_item", "a1", "b2"]);
  expect(await names(["tag:{items,users}"])).toEqual(["get_item", "list_users"]);
  expect(await names(["path:/items/*"])).toEqual(["get_item"]);
});
