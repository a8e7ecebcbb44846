// examples/hono-shop run as a user runs it (bun server.ts, a free port), its /mcp driven by the official SDK v2 client.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { BUN, ROOT } from "../helpers/proc.ts";
import { validatingFetch } from "../http/helpers.ts";

let proc: ReturnType<typeof Bun.spawn>;
let base: string;

beforeAll(async () => {
  proc = Bun.spawn([BUN, `${ROOT}/examples/hono-shop/server.ts`], {
    env: { ...process.env, PORT: "0" },
    stdout: "pipe",
    stderr: "pipe",
    cwd: ROOT,
  });
  // Wait for the line naming the address (bounded).
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let text = "";
  const deadline = setTimeout(() => proc.kill(), 30_000);
  while (!/MCP at (http:\/\/\S+)\/mcp/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the example exited: ${text}`);
    text += new TextDecoder().decode(value);
  }
  clearTimeout(deadline);
  reader.releaseLock();
  base = /MCP at (http:\/\/\S+)\/mcp/.exec(text)![1]!;
});
afterAll(() => proc?.kill());

test("the Hono example serves its REST routes and MCP at /mcp, its OpenAPI tools calling the app in-process", async () => {
  expect((await (await fetch(`${base}/api/products/1`)).json()).name).toBe("Lamp");
  const val = validatingFetch();
  const client = new Client({ name: "example", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: val.fetch }));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["price_total", "list_products", "create_product", "get_product"]);
    expect((tools[3]!.inputSchema.properties as any).id.type).toBe("integer");
    const created = await client.callTool({
      name: "create_product",
      arguments: { name: "Chair", price: 60, tags: ["office"] },
    });
    expect(created.structuredContent).toEqual({ id: 3, name: "Chair", price: 60, tags: ["office"] });
    const office = await client.callTool({ name: "list_products", arguments: { tag: "office" } });
    expect((office.structuredContent as any).result.map((p: any) => p.name)).toEqual(["Desk", "Chair"]);
    expect((await client.callTool({ name: "price_total", arguments: { ids: [1, 3] } })).content).toEqual([
      { type: "text", text: "85" },
    ]);
    const missing = await client.callTool({ name: "get_product", arguments: { id: 99 } });
    expect(missing.isError).toBe(true);
    expect((missing.content as any)[0].text).toContain("404");
    expect(val.checked.responses).toBeGreaterThanOrEqual(5);
  } finally {
    await client.close();
  }
});
