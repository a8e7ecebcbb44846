// Official SDK v1 (@modelcontextprotocol/sdk) over Streamable HTTP on node:http, the SDK's documented
// stateless pattern: a fresh McpServer + StreamableHTTPServerTransport({ sessionIdGenerator: undefined,
// enableJsonResponse: true }) per request. Tools add_numbers and echo. Usage: node sdk-v1-http.mjs PORT
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function build() {
  const server = new McpServer({ name: "bench-sdk-v1-http", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    "add_numbers",
    { description: "Add two numbers", inputSchema: { x: z.number(), y: z.number() } },
    async ({ x, y }) => ({ content: [{ type: "text", text: String(x + y) }] }),
  );
  server.registerTool("echo", { description: "Echo text", inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

const port = Number(process.argv[2] ?? 3400);
createServer(async (req, res) => {
  if (req.method !== "POST") return res.writeHead(405).end();
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const server = build();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}).listen(port, "127.0.0.1", () => process.stderr.write(`sdk-v1-http on http://127.0.0.1:${port}/mcp\n`));
