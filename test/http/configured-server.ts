// A server configured through serve({ http: {...} }) alone (no --http flag): short limits for the tests.
import * as v from "valibot";
import { serve, tool } from "../../src/index.ts";
import { sleep } from "../fixtures/servers/sleep-tool.ts";

/** The sleep tool, saying on stderr when it starts: a test waits for that instead of guessing when the call is in flight. */
const announced = tool({
  name: "announced",
  description: "Says it started (stderr), then sleeps ms milliseconds",
  input: v.object({ ms: v.number() }),
  run: (args, ctx) => {
    process.stderr.write(`announced: sleeping ${args.ms}\n`);
    return sleep(args, ctx);
  },
});

await serve({
  name: "configured",
  version: "1.0.0",
  tools: [sleep, announced],
  http: {
    port: 0,
    requestTimeoutMs: 1500,
    sessionIdleMs: 1200,
    maxSessions: 2,
    maxBodyBytes: 1024,
    allowedOrigins: ["https://app.example.com"],
  },
});
