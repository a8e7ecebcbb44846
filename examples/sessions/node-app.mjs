// A Node (≥ 20) HTTP server that lets the AI client work inside it while it runs (docs/sessions.md).
// `npm run build:session` makes the Node build of mcpbin/session; then `node examples/sessions/node-app.mjs`.
import { createServer } from "node:http";
import { session, tool } from "mcpbin/session";

let hits = 0;
const server = createServer((req, res) => {
  hits++;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ hello: "from node", hits }));
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1");

const stats = tool({
  name: "server_stats",
  description: "How many requests the running Node server answered, and its memory.",
  inputSchema: { type: "object", properties: {} },
  run: () => ({ hits, rssBytes: process.memoryUsage().rss, node: process.version }),
});

const s = await session({ name: "node-api", tools: [stats] });
if (!server.listening) await new Promise((r) => server.once("listening", r));
console.log(`node-api listening on port ${server.address().port} (session ${s.id})`);
