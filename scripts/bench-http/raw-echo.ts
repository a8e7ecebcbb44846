// The HTTP limit on Bun (scripts/bench-http.ts): a raw Bun.serve that parses a JSON-RPC tools/call body and answers its x+y as a JSON result, no MCP at all. Usage: bun raw-echo.ts PORT
const port = Number(process.argv[2] ?? 3400);
Bun.serve({
  hostname: "127.0.0.1",
  port,
  async fetch(req) {
    const m = (await req.json()) as { id?: number | string; params?: { arguments?: { x?: number; y?: number } } };
    const a = m.params?.arguments ?? {};
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: m.id ?? null,
      result: { content: [{ type: "text", text: String((a.x ?? 0) + (a.y ?? 0)) }] },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  },
});
process.stderr.write(`raw-echo on http://127.0.0.1:${port}/mcp\n`);
