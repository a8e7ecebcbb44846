// A server configured through serve({ http: {...} }) alone (no --http flag): short limits for the tests.
import * as v from "valibot";
import { serve, tool } from "../../src/index.ts";

const sleep = tool({
  name: "sleep",
  description: "Sleep ms milliseconds",
  input: v.object({ ms: v.number() }),
  run: async ({ ms }, ctx) => {
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      ctx.signal.addEventListener("abort", () => (clearTimeout(t), reject(ctx.signal.reason)));
    });
    return `slept ${ms}`;
  },
});

await serve({
  name: "configured",
  version: "1.0.0",
  tools: [sleep],
  http: { port: 0, requestTimeoutMs: 1500, sessionIdleMs: 1200, maxSessions: 2, maxBodyBytes: 1024, allowedOrigins: ["https://app.example.com"] },
});
