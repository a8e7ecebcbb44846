// The official conformance suite's HTTP client scenarios against mcpbin's client program
// (examples/conformance/client.ts, connect() over Streamable HTTP): x-mcp-header arguments mirrored into
// Mcp-Param-* headers with the spec's encoding, tools whose annotation breaks the rules left out, a POST stream
// that ends without its response resumed with Last-Event-ID after the server's retry, and a plain tools/call.
import { expect, test } from "bun:test";
import { clientScenario, notPassed } from "../helpers/conformance.ts";

const failing = (checks: Awaited<ReturnType<typeof clientScenario>>) =>
  notPassed(checks).filter((l) => !/: (INFO|SKIPPED)/.test(l));

for (const [scenario, passes] of [
  ["http-custom-headers", 18],
  ["http-invalid-tool-headers", 12],
  ["sse-retry", 3],
  ["tools_call", 2],
] as const) {
  test(`conformance ${scenario}: no check fails`, async () => {
    const checks = await clientScenario("examples/conformance/client.ts", scenario);
    expect(failing(checks)).toEqual([]);
    expect(checks.filter((c) => c.status === "SUCCESS").length).toBe(passes);
  }, 60_000);
}
