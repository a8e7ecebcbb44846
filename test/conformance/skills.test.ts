// The official conformance suite's skills scenarios (sep-2640-*) against the compiled conformance example served over
// --http: every check passes and none is skipped (the example serves skills with a prefix, nested folders, extra
// frontmatter fields and directories, so every check applies).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { conformanceServerOverHttp, notPassed, serverScenario } from "../helpers/conformance.ts";

let server: Awaited<ReturnType<typeof conformanceServerOverHttp>> | undefined;
let url = "";

beforeAll(async () => {
  server = await conformanceServerOverHttp();
  url = server.url;
}, 120_000);

afterAll(() => server?.stop());

for (const scenario of ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"]) {
  test(`conformance ${scenario}: every check passes, none skipped`, async () => {
    const checks = await serverScenario(url, scenario);
    expect(checks.length).toBeGreaterThan(5);
    expect(notPassed(checks)).toEqual([]);
  }, 60_000);
}
