// The official conformance suite's skills scenarios (sep-2640-*) against the compiled conformance example served over
// --http: every check passes and none is skipped (the example serves skills with a prefix, nested folders, extra
// frontmatter fields and directories, so every check applies).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { compileFixture } from "../helpers/proc.ts";
import { notPassed, serverScenario } from "../helpers/conformance.ts";

let server: ReturnType<typeof Bun.spawn> | undefined;
let url = "";

beforeAll(async () => {
  const bin = await compileFixture("examples/conformance/server.ts", "conformance-skills");
  const port = 20000 + Math.floor(Math.random() * 20000);
  server = Bun.spawn([bin, "--http", `127.0.0.1:${port}`], { stdout: "ignore", stderr: "pipe" });
  url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => true,
        () => false,
      )
    )
      break;
    await Bun.sleep(50);
  }
}, 120_000);

afterAll(() => server?.kill());

for (const scenario of ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"]) {
  test(`conformance ${scenario}: every check passes, none skipped`, async () => {
    const checks = await serverScenario(url, scenario);
    expect(checks.length).toBeGreaterThan(5);
    expect(notPassed(checks)).toEqual([]);
  }, 60_000);
}
