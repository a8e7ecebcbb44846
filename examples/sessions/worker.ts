// A worker session: the server starts it (`sessions: { workers: { module: "./worker.ts", max: 2 } }`),
// restarts it after a call that timed out, and ends it with itself.
import { session, tool } from "mcpbin/session";
import * as v from "valibot";

const fib = tool({
  name: "fibonacci",
  description: "The n-th Fibonacci number, computed the slow way in a worker process.",
  input: v.object({ n: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(50)) }),
  run: ({ n }) => {
    const f = (k: number): number => (k < 2 ? k : f(k - 1) + f(k - 2));
    return { n, value: f(n), pid: process.pid };
  },
});

await session({ name: "fib-worker", tools: [fib] });
