// B39 start-up script: registers a tool named BAD_NAME (or "echo" twice when DUPLICATE is set), then serves.
import { serve, tool } from "../../src/index.ts";

const echo = () => tool({ name: "echo", description: "Echo", run: () => "x" });
const tools = process.env.DUPLICATE
  ? [echo(), echo()]
  : [tool({ name: process.env.BAD_NAME ?? "", description: "Bad", run: () => "x" })];
await serve({ name: "bad-names", version: "1.0.0", tools });
