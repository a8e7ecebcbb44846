// A development tool; the config's exclude: ["debug_*"] keeps it out of the server.
import { tool } from "mcpbin";

export const debugEnv = tool({
  name: "debug_env",
  description: "Show the server's environment variables (development only).",
  run: () => Object.keys(process.env).sort().join("\n"),
});
