// A 200-tool server for the cold-start benchmark (scripts/bench.ts): every schema is built at start.
import { serve } from "mcpbin";
import { manyTools } from "./generated-tools.ts";

await serve({ name: "bench-many-tools", version: "1.0.0", tools: manyTools(false) });
