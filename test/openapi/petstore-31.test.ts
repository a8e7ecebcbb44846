// A real OpenAPI 3.1 document builds: references through `$id` and `$anchor` (the Swagger Petstore 3.1's
// `/api/v31/components/schemas/petdetails#pet_details_id`) resolve as JSON Schema 2020-12 resolves them. The fixture
// is the document itself, byte for byte (test/fixtures/openapi/README.md names its source and commit).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openapiTools, type Tool } from "../../src/index.ts";
import { startEcho, type Echo } from "./echo-server.ts";

const PETSTORE = new URL("../fixtures/openapi/petstore-3.1.json", import.meta.url).pathname;
let echo: Echo;
let tools: Tool[];
beforeAll(async () => {
  echo = startEcho();
  tools = await openapiTools(PETSTORE, { baseUrl: `${echo.url}/api/v31` });
});
afterAll(() => echo.stop());
const schemaOf = (name: string) => tools.find((t) => t.name === name)!.inputSchema as any;
/** A property's schema with `$ref` into the root's `$defs` and a one-item `allOf` (a ref with siblings) followed. */
const follow = (root: any, x: any): any =>
  x?.$ref ? follow(root, root.$defs[x.$ref.split("/").pop()]) : x?.allOf?.length === 1 ? follow(root, x.allOf[0]) : x;

test("the Swagger Petstore 3.1 document builds: $id and $anchor references resolve", () => {
  expect(tools.map((t) => t.name)).toEqual(["update_pet", "add_pet", "get_pet_by_id"]);
  const add = schemaOf("add_pet");
  expect(add.properties.petDetailsId).toMatchObject({ type: "integer", format: "int64" }); // via #pet_details_id
  expect(JSON.stringify(add)).not.toContain("/api/v31/");
  expect(Object.keys(follow(add, add.properties.category).properties)).toEqual(["id", "name"]);
  expect(Object.keys(follow(add, add.properties.tags.items).properties)).toEqual(["id", "name"]);
  expect(Object.keys(follow(add, add.properties.petDetails).properties)).toEqual(["id", "category", "tag"]);
  // Its PetDetails carries `$vocabulary` as a string (2020-12 asks for an object, in a meta-schema only): left out,
  // or the validator would refuse the whole input schema at the first call.
  expect(JSON.stringify(add)).not.toContain("$vocabulary");
});

test("the Swagger Petstore 3.1 document: a call sends the request", async () => {
  const r = (await tools.find((t) => t.name === "add_pet")!({
    name: "doggie",
    photoUrls: ["u"],
    petDetailsId: 7,
  })) as any;
  expect(r.isError).toBeUndefined();
  expect(r.structuredContent.path).toBe("/v1/api/v31/pet");
  expect(JSON.parse(r.structuredContent.body)).toEqual({ name: "doggie", photoUrls: ["u"], petDetailsId: 7 });
});

test("$id and $anchor references: relative $ids nest, a pointer after an $id, a fragment inside a resource", async () => {
  const doc = {
    openapi: "3.1.0",
    info: { title: "ids", version: "1" },
    servers: [{ url: "https://api.example.test" }],
    paths: {
      "/x": {
        post: {
          operationId: "make",
          requestBody: {
            content: { "application/json": { schema: { $ref: "https://schemas.example.test/v1/root" } } },
          },
          responses: { 200: { description: "ok" } },
        },
      },
    },
    components: {
      schemas: {
        Root: {
          $id: "https://schemas.example.test/v1/root",
          type: "object",
          properties: {
            leaf: { $ref: "leaf" }, // → https://schemas.example.test/v1/leaf (relative to the root's $id)
            code: { $ref: "leaf#code" }, // an anchor inside that resource
            size: { $ref: "#/$defs/size" }, // a fragment: resolved in this resource, not the document
            deep: { $ref: "leaf#/properties/note" }, // a JSON pointer after an $id
          },
          $defs: {
            size: { type: "integer", minimum: 1 },
            Leaf: {
              $id: "leaf",
              type: "object",
              properties: {
                code: { $anchor: "code", type: "string", pattern: "^[A-Z]+$" },
                note: { type: "string", maxLength: 9 },
              },
            },
          },
        },
      },
    },
  };
  const [make] = await openapiTools(doc);
  const s = make!.inputSchema as any;
  const at = (x: any) => follow(s, x);
  expect(at(s.properties.code)).toEqual({ type: "string", pattern: "^[A-Z]+$" });
  expect(at(s.properties.size)).toEqual({ type: "integer", minimum: 1 });
  expect(at(s.properties.deep)).toEqual({ type: "string", maxLength: 9 });
  expect(Object.keys(at(s.properties.leaf).properties)).toEqual(["code", "note"]);
});
