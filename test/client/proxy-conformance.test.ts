// The official conformance suite through `mcpbin proxy --http` in front of the conformance example over stdio:
// `tools-call-with-logging` passes right after `server-stateless` (whose test_streaming_elicitation leaves a
// 2026-07-28 round that its client never answers). On main the parked round kept the upstream's log messages
// from every older-protocol client for up to 10 minutes, and tools-call-with-logging failed.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { HttpProcess } from "../http/helpers.ts";
import { notPassed, serverScenario } from "../helpers/conformance.ts";
import { serversFile } from "./front.ts";

setDefaultTimeout(120_000);
let proxy: HttpProcess;
beforeAll(async () => {
  const file = serversFile({ conformance: { command: BUN, args: [resolve(ROOT, "examples/conformance/server.ts")] } });
  proxy = await HttpProcess.start([BUN, resolve(ROOT, "bin/mcpbin.ts"), "proxy", "--servers", file]);
}, 60_000);
afterAll(() => proxy?.kill());

test("conformance tools-call-with-logging through the proxy, after server-stateless left a round unanswered", async () => {
  await serverScenario(proxy.url, "server-stateless");
  const checks = await serverScenario(proxy.url, "tools-call-with-logging");
  expect(checks.length).toBeGreaterThan(0);
  expect(notPassed(checks)).toEqual([]);
});
