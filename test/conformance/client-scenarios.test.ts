// The official conformance suite's remaining non-auth client scenarios against mcpbin's client program
// (examples/conformance/client.ts, connect() over Streamable HTTP): a -32022 answer retried once with a version
// the server supports, elicitation answers completed with the requested schema's defaults, 2026-07-28 request
// state echoed (and only to its own request), and a tool's 2020-12 inputSchema kept verbatim.
import { expect, test } from "bun:test";
import { clientScenario, notPassed } from "../helpers/conformance.ts";

const failing = (checks: Awaited<ReturnType<typeof clientScenario>>) =>
  notPassed(checks).filter((l) => !/: (INFO|SKIPPED)/.test(l));

for (const [scenario, passes] of [
  ["request-metadata", 5],
  ["elicitation-sep1034-client-defaults", 5],
  ["sep-2322-client-request-state", 5],
  ["json-schema-2020-12-preservation", 9],
] as const) {
  test(`conformance ${scenario}: no check fails`, async () => {
    const checks = await clientScenario("examples/conformance/client.ts", scenario);
    expect(failing(checks)).toEqual([]);
    expect(checks.filter((c) => c.status === "SUCCESS").length).toBe(passes);
  }, 60_000);
}
