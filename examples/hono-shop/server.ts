// A Hono app with its own HTTP API that also serves MCP at /mcp: one hand-written tool, plus every
// operation of the app's OpenAPI document as a tool, called in-process through app.fetch (no network hop).
//   bun examples/hono-shop/server.ts            (PORT=3000 by default; PORT=0 picks a free port)
//   claude mcp add --transport http shop http://127.0.0.1:3000/mcp
import { Hono } from "hono";
import * as v from "valibot";
import { mcpHandler, openapiTools, tool } from "mcpbin";

const products = new Map([
  [1, { id: 1, name: "Lamp", price: 25, tags: ["home"] }],
  [2, { id: 2, name: "Desk", price: 180, tags: ["home", "office"] }],
]);

const app = new Hono();
app.get("/api/products", (c) => {
  const tag = c.req.query("tag");
  return c.json([...products.values()].filter((p) => tag === undefined || p.tags.includes(tag)));
});
app.get("/api/products/:id", (c) => {
  const p = products.get(Number(c.req.param("id")));
  return p ? c.json(p) : c.json({ error: "no such product" }, 404);
});
app.post("/api/products", async (c) => {
  const body = (await c.req.json()) as { name: string; price: number; tags?: string[] };
  const id = Math.max(0, ...products.keys()) + 1;
  const p = { id, name: body.name, price: body.price, tags: body.tags ?? [] };
  products.set(id, p);
  return c.json(p, 201);
});

/** The app's API, described once; the same document could be served at /openapi.json. */
const spec = {
  openapi: "3.1.0",
  info: { title: "Shop", version: "1.0.0" },
  servers: [{ url: "http://shop.internal" }],
  paths: {
    "/api/products": {
      get: {
        operationId: "listProducts",
        summary: "List products, optionally by tag",
        parameters: [{ name: "tag", in: "query", schema: { type: "string" } }],
        responses: { "200": { description: "the products" } },
      },
      post: {
        operationId: "createProduct",
        summary: "Add a product",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name", "price"],
                properties: {
                  id: { type: "integer", readOnly: true },
                  name: { type: "string" },
                  price: { type: "number", minimum: 0 },
                  tags: { type: "array", items: { type: "string" } },
                },
              },
            },
          },
        },
        responses: { "201": { description: "the new product" } },
      },
    },
    "/api/products/{id}": {
      get: {
        operationId: "getProduct",
        summary: "One product by id",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "the product" }, "404": { description: "no such product" } },
      },
    },
  },
};

const priceTotal = tool({
  name: "price_total",
  description: "Total price of some products by id",
  input: v.object({ ids: v.array(v.pipe(v.number(), v.integer())) }),
  run: ({ ids }) => ids.reduce((sum, id) => sum + (products.get(id)?.price ?? 0), 0),
});

const mcp = mcpHandler({
  name: "shop",
  version: "1.0.0",
  tools: [priceTotal, ...(await openapiTools(spec, { fetch: app.fetch }))],
});
// In Hono on Bun, c.env is the Bun server: a long tool call may then outlast Bun's idle timeout.
app.all("/mcp", (c) => mcp(c.req.raw, c.env as never));

const server = Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000), fetch: app.fetch });
process.stderr.write(
  `shop: http://127.0.0.1:${server.port}/api/products, MCP at http://127.0.0.1:${server.port}/mcp\n`,
);
