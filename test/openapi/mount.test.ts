// mcpHandler() mounted in a Hono app and in a plain Bun.serve app next to their own routes, driven by the
// official SDK v1 (legacy session) and v2 (stateless 2026-07-28) HTTP clients, every response validated;
// its tools include openapiTools() calling the echo API in-process through fetch (no network hop).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Hono } from "hono";
import * as v from "valibot";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { mcpHandler, openapiTools, tool, type McpHandler } from "../../src/index.ts";
import { validatingFetch } from "../http/helpers.ts";
import { echoFetch } from "./echo-server.ts";

const DOC = new URL("../fixtures/openapi/echo.yaml", import.meta.url).pathname;
const TOKEN = "mcp-client-token";
const servers: { stop(force: boolean): unknown }[] = [];
const handlers: McpHandler[] = [];
let honoUrl: string;
let bunUrl: string;

async function server(name: string, token?: string): Promise<McpHandler> {
  const greet = tool({
    name: "greet",
    description: "Say hello",
    input: v.object({ who: v.string() }),
    run: ({ who }) => `hello ${who}`,
  });
  const api = await openapiTools(DOC, { fetch: echoFetch, include: ["get_item", "with_bearer"] });
  const h = mcpHandler({ name, version: "1.0.0", tools: [greet, ...api], ...(token ? { http: { token } } : {}) });
  handlers.push(h);
  return h;
}

beforeAll(async () => {
  const app = new Hono();
  const mcp = await server("shop");
  app.get("/api/hello", (c) => c.text("hi from the app"));
  app.all("/mcp", (c) => mcp(c.req.raw, c.env as never));
  const hono = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
  honoUrl = `http://127.0.0.1:${hono.port}`;
  const guarded = await server("plain", TOKEN);
  const plain = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req, srv) => (new URL(req.url).pathname === "/rpc/mcp" ? guarded(req, srv) : new Response("app route")),
  });
  bunUrl = `http://127.0.0.1:${plain.port}`;
  servers.push(hono, plain);
});
afterAll(() => {
  for (const h of handlers) h.close();
  for (const s of servers) s.stop(true);
});

test("Hono: the app's own route still answers; SDK v1 gets a legacy session, tools from both sources, an in-process API call", async () => {
  expect(await (await fetch(`${honoUrl}/api/hello`)).text()).toBe("hi from the app");
  const val = validatingFetch();
  const transport = new TransportV1(new URL(`${honoUrl}/mcp`), { fetch: val.fetch });
  const client = new ClientV1({ name: "v1", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toEqual({ name: "shop", version: "1.0.0" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet", "get_item", "with_bearer"]);
    expect((await client.callTool({ name: "greet", arguments: { who: "ana" } })).content).toEqual([
      { type: "text", text: "hello ana" },
    ]);
    const item = (await client.callTool({ name: "get_item", arguments: { itemId: "a b", limit: 2 } }))
      .structuredContent as any;
    expect(item).toMatchObject({ method: "GET", path: "/v1/items/a%20b", query: "limit=2" });
    expect(val.checked.responses).toBeGreaterThanOrEqual(4);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
});

test("Hono: SDK v2 speaks stateless 2026-07-28 to the same handler", async () => {
  const val = validatingFetch();
  const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new TransportV2(new URL(`${honoUrl}/mcp`), { fetch: val.fetch }));
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["greet", "get_item", "with_bearer"]);
    const r = await client.callTool({ name: "get_item", arguments: { itemId: "7", tags: ["x", "y"] } });
    expect((r.structuredContent as any).query).toBe("tags=x&tags=y");
    expect(val.checked.responses).toBeGreaterThanOrEqual(2);
  } finally {
    await client.close();
  }
});

test("the transport's rules hold inside the app: Origin, content type, GET", async () => {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
  });
  const h = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const evil = await fetch(`${honoUrl}/mcp`, {
    method: "POST",
    headers: { ...h, origin: "https://evil.example" },
    body,
  });
  expect(evil.status).toBe(403);
  expect(await evil.text()).toContain("Origin");
  expect(
    (await fetch(`${honoUrl}/mcp`, { method: "POST", headers: { ...h, "content-type": "text/plain" }, body })).status,
  ).toBe(415);
  expect((await fetch(`${honoUrl}/mcp`)).status).toBe(405);
});

test("plain Bun.serve: the bearer token is required, and the MCP client's token never reaches the API", async () => {
  expect(await (await fetch(`${bunUrl}/other`)).text()).toBe("app route");
  const refused = await fetch(`${bunUrl}/rpc/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: "{}",
  });
  expect(refused.status).toBe(401);
  expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
  for (const era of ["v1", "v2"] as const) {
    const val = validatingFetch();
    const f: typeof fetch = ((input: any, init?: any) =>
      val.fetch(input, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init?.headers)), authorization: `Bearer ${TOKEN}` },
      })) as typeof fetch;
    const client =
      era === "v1"
        ? new ClientV1({ name: "v1", version: "1" })
        : new ClientV2({ name: "v2", version: "1" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(
      (era === "v1"
        ? new TransportV1(new URL(`${bunUrl}/rpc/mcp`), { fetch: f })
        : new TransportV2(new URL(`${bunUrl}/rpc/mcp`), { fetch: f })) as never,
    );
    try {
      const r = await client.callTool({ name: "with_bearer", arguments: {} });
      const seen = r.structuredContent as any;
      expect(seen.path).toBe("/v1/secure/token");
      expect(seen.headers.authorization).toBeUndefined();
      expect(JSON.stringify(seen)).not.toContain(TOKEN);
      expect(val.checked.responses).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
    }
  }
});
