// A server configured through serve({ http: {...} }) alone (no --http flag): short limits for the tests.
import { serve } from "../../src/index.ts";
import { sleep } from "../fixtures/servers/sleep-tool.ts";


await serve({
  name: "configured",
  version: "1.0.0",
  tools: [sleep],
  http: { port: 0, requestTimeoutMs: 1500, sessionIdleMs: 1200, maxSessions: 2, maxBodyBytes: 1024, allowedOrigins: ["https://app.example.com"] },
});
