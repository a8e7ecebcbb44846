// Config mistakes through the CLI (`mcpbin list --config FILE`): one line naming the file, the dotted key and what is expected.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mcpbin, oneLineError } from "./run-cli.ts";
import { HTTP_KEYS } from "../../src/shared/server-keys.ts";
import { configSource, removeProjects, toolsModule, writeProject } from "../loader/fixture-project.ts";

afterAll(removeProjects);
setDefaultTimeout(60_000);

test("mcpbin list --config FILE: a bad json or http key is one line naming the file, the key and what is expected", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [
      { json: { nonFinite: "zero" } },
      'mcpbin: bad.config.ts: "json.nonFinite" must be one of "null", "string", "error"; got "zero"',
    ],
    [{ json: { foo: 1 } }, 'mcpbin: bad.config.ts: "json.foo" is not a known key (allowed: nonFinite, bigint)'],
    [
      { http: { port: 99999 } },
      'mcpbin: bad.config.ts: "http.port" must be an integer 0-65535 (0 picks a free port); got 99999',
    ],
    [
      { http: { prot: 1 } },
      `mcpbin: bad.config.ts: "http.prot" is not a known key (did you mean "port"? allowed: ${Object.keys(HTTP_KEYS).join(", ")})`,
    ],
  ];
  const files: Record<string, string> = { "tools/t.ts": toolsModule("t") };
  cases.forEach(([o], i) => (files[`c${i}/bad.config.ts`] = configSource({ tools: ["../tools"], ...o })));
  const dir = writeProject(files);
  for (const [i, [o, expected]] of cases.entries()) {
    const r = await mcpbin(["list", "--config", "bad.config.ts"], `${dir}/c${i}`);
    expect({ o, code: r.code, stdout: r.stdout }).toEqual({ o, code: 1, stdout: "" });
    expect(oneLineError(r)).toBe(expected);
  }
});
