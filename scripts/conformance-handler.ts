// The conformance server (examples/conformance/server.ts) behind mcpHandler() in a plain Bun.serve app, for
// scripts/conformance.sh --handler: its serve() options are collected (the collector slot of mcpbin list),
// then mounted at /mcp of an app that also has its own route. PORT (default 3199).
import { installCollector } from "../src/runtime/collector.ts";
import { mcpHandler, type ServerOptions } from "../src/index.ts";

let collected: ServerOptions | undefined;
installCollector((o: ServerOptions) => {
  collected = o;
  return new Promise(() => {});
});
void import("../examples/conformance/server.ts");
while (collected === undefined) await Bun.sleep(1);
installCollector(undefined);
const mcp = mcpHandler(collected);
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 3199),
  idleTimeout: 0,
  fetch: (req, srv) => (new URL(req.url).pathname === "/mcp" ? mcp(req, srv) : new Response("the app's own route\n")),
});
process.stderr.write(`conformance-handler: MCP at http://127.0.0.1:${server.port}/mcp\n`);
