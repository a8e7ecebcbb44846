// Project style: the server's identity, two tool directories and a filter. Build: mcpbin build --config examples/project/mcpbin.config.ts
import { defineConfig } from "mcpbin";

export default defineConfig({
  name: "project-example",
  version: "1.0.0",
  title: "Text and math tools",
  instructions: "Small deterministic text and arithmetic helpers.",
  tools: ["tools/text", "tools/math"],
  exclude: ["debug_*"], // tools/math/debug.ts is for development only
  timeoutMs: 10_000,
});
