// A server whose heavy tools run in two worker sessions it starts itself (docs/sessions.md "Worker sessions");
// the module path is relative to the working directory the client starts the server in.
import { serve } from "mcpbin";

await serve({ name: "fib", version: "1.0.0", tools: [], sessions: { workers: { module: "./worker.ts", max: 2 } } });
