// The official conformance suite's 2026-07-28 routing-header server scenarios against a server with a tool
// whose parameters carry x-mcp-header (test/fixtures/servers/param-headers.ts), over its own --http transport.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { notPassed, serverScenario } from "../helpers/conformance.ts";
import { HttpProcess } from "../http/helpers.ts";

let s: HttpProcess;
beforeAll(async () => {
  s = await HttpProcess.source("test/fixtures/servers/param-headers.ts");
}, 60_000);
afterAll(() => s?.kill());

for (const [scenario, count] of [
  ["http-custom-header-server-validation", 10],
  ["http-header-validation", 14],
] as const) {
  test(`${scenario}: every check passes`, async () => {
    const checks = await serverScenario(s.url, scenario);
    expect(notPassed(checks)).toEqual([]);
    expect(checks.length).toBe(count);
  }, 60_000);
}
