// The executable an MCP client launches: its own tools, plus those of the live session running in its folder.
// `mcpbin build examples/sessions/server.ts --outfile dist/shop`, then configure the client with dist/shop's absolute path.
import { serve, tool } from "mcpbin";

const version = tool({ name: "shop_version", description: "The shop server's version.", run: () => "1.0.0" });

await serve({ name: "shop", version: "1.0.0", tools: [version], sessions: { timeoutMs: 120_000, queue: 64 } });
