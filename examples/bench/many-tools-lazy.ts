// The same 200 tools with their input schemas given as functions: built on each tool's first call, not at start.
import { serve } from "mcpbin";
import { manyTools } from "./generated-tools.ts";

await serve({ name: "bench-many-tools", version: "1.0.0", tools: manyTools(true) });
