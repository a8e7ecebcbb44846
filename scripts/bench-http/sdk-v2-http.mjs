// Official SDK v2 (@modelcontextprotocol/server) over Streamable HTTP: createMcpHandler (a fresh server
// per request; modern 2026-07-28 and stateless legacy), JSON responses, hosted on Bun.serve (the same
// HTTP server mcpbin uses). Tools add_numbers and echo. Usage: bun sdk-v2-http.mjs PORT
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: "bench-sdk-v2-http", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.registerTool(
      "add_numbers",
      { description: "Add two numbers", inputSchema: z.object({ x: z.number(), y: z.number() }) },
      async ({ x, y }) => ({ content: [{ type: "text", text: String(x + y) }] }),
    );
    server.registerTool(
      "echo",
      { description: "Echo text", inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    return server;
  },
  { responseMode: "json" },
);

const port = Number(process.argv[2] ?? 3401);
Bun.serve({ hostname: "127.0.0.1", port, fetch: (req) => handler.fetch(req) });
process.stderr.write(`sdk-v2-http on http://127.0.0.1:${port}/mcp\n`);
