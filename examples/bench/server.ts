// The benchmark server: add_numbers and echo, the same two tools every peer in the benchmark serves (scripts/bench.ts).
import * as v from "valibot";
import { serve, tool } from "mcpbin";

const addNumbers = tool({
  name: "add_numbers",
  description: "Add two numbers",
  input: v.object({ x: v.number(), y: v.number() }),
  run: ({ x, y }) => x + y,
});

const echo = tool({
  name: "echo",
  description: "Echo text",
  input: v.object({ text: v.string() }),
  run: ({ text }) => text,
});

await serve({ name: "bench-mcpbin", version: "1.0.0", tools: [addNumbers, echo] });
