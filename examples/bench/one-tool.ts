// The smallest server: one tool over stdio, nothing else configured (scripts/bench-startup.ts measures what it loads and how fast it starts).
import * as v from "valibot";
import { serve, tool } from "mcpbin";

const echo = tool({
  name: "echo",
  description: "Echo text",
  input: v.object({ text: v.string() }),
  run: ({ text }) => text,
});

await serve({ name: "one-tool", version: "1.0.0", tools: [echo] });
