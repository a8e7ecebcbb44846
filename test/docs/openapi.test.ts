/** @module docs/openapi.md: the petstore script built and the `mcpbin openapi` executable and report, driven by the official SDK client against a local stand-in for the API. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { mcpbin } from "../cli/run-cli.ts";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
const seen: { method: string; path: string; key: string | null }[] = [];
const api = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const url = new URL(req.url);
    seen.push({ method: req.method, path: url.pathname + url.search, key: req.headers.get("x-api-key") });
    if (url.pathname.endsWith("/pets") && req.method === "GET")
      return Response.json([{ id: 1, name: "Rex", tag: null }]);
    if (url.pathname.endsWith("/pets/7")) return Response.json({ id: 7, name: "Tom" });
    if (url.pathname.endsWith("/store/inventory")) return Response.json({ available: 3 });
    return new Response("not here", { status: 404 });
  },
});
const base = `http://127.0.0.1:${api.port}/v1`;
let dir = "";
let bin = "";
const clients: Client[] = [];
beforeAll(async () => {
  ({ dir, bin } = await buildExample(
    "openapi",
    ["server.ts", "--outfile", "dist/petstore-script"],
    "dist/petstore-script",
  ));
});
afterAll(async () => {
  for (const c of clients) await c.close();
  api.stop(true);
  removeExamples();
});

async function client(command: string, env: Record<string, string>): Promise<Client> {
  const t = new StdioClientTransport({
    command,
    args: [],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  tap(t as unknown as Transport);
  const c = new Client({ name: "guide-reader", version: "1.0.0" });
  await c.connect(t);
  clients.push(c);
  return c;
}

test("the script: the filtered operations and its own tool; calls carry the key from PETSTORE_KEY", async () => {
  const c = await client(bin, { PETSTORE_URL: base, PETSTORE_KEY: "k-123" });
  expect((await c.listTools()).tools.map((t) => t.name)).toEqual([
    "list_pets",
    "create_pet",
    "show_pet_by_id",
    "get_inventory",
    "about",
  ]);
  const pets: any = await c.callTool({ name: "list_pets", arguments: { limit: 5 } });
  expect(pets.structuredContent).toEqual({ result: [{ id: 1, name: "Rex", tag: null }] });
  expect(seen.at(-1)).toEqual({ method: "GET", path: "/v1/pets?limit=5", key: "k-123" });
  const one: any = await c.callTool({ name: "show_pet_by_id", arguments: { petId: 7 } });
  expect(one.structuredContent).toEqual({ id: 7, name: "Tom" });
  const bad: any = await c.callTool({ name: "list_pets", arguments: { limit: 1000 } });
  expect(bad.isError).toBe(true);
});

test("mcpbin openapi: the report, and one executable whose base URL MCPBIN_BASE_URL replaces", async () => {
  const check = await mcpbin(["openapi", "./petstore.yaml", "--mode", "dynamic", "--check"], dir);
  expect(check.code).toBe(0);
  expect(check.stdout + check.stderr).toContain("API_KEY_API_KEY");
  const built = await mcpbin(
    ["openapi", "./petstore.yaml", "--base-url", "https://petstore.example.com/v1", "--outfile", "dist/petstore"],
    dir,
  );
  expect(built.code).toBe(0);
  const c = await client(join(dir, "dist/petstore"), { MCPBIN_BASE_URL: base, API_KEY_API_KEY: "k-9" });
  expect((await c.listTools()).tools.map((t) => t.name)).toEqual([
    "list_pets",
    "create_pet",
    "show_pet_by_id",
    "delete_pet",
    "get_inventory",
  ]);
  const inv: any = await c.callTool({ name: "get_inventory", arguments: {} });
  expect(inv.structuredContent).toEqual({ available: 3 });
  expect(seen.at(-1)).toEqual({ method: "GET", path: "/v1/store/inventory", key: "k-9" });
});
