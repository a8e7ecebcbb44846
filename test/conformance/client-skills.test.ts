// The official conformance suite's skills client scenario against mcpbin's client program
// (examples/conformance/client.ts): a host lists skills and fetches no skill file ahead of need.
import { expect, test } from "bun:test";
import { notPassed, clientScenario } from "../helpers/conformance.ts";

test("conformance sep-2640-client-no-prefetch: skills/list is called, no file is read", async () => {
  const checks = await clientScenario("examples/conformance/client.ts", "sep-2640-client-no-prefetch");
  expect(checks.map((c) => c.id)).toContain("sep-2640-host-no-prefetch");
  expect(notPassed(checks)).toEqual([]);
}, 60_000);
