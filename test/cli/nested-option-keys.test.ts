// Option objects read only when used (http.auth once HTTP starts, an upstream's oauth when it signs in, tasks, json)
// refuse an unknown key when the server is made: `mcpbin build` and a start over stdio fail in one line naming the key
// it probably meant and the allowed keys, instead of serving open a server its author believes protected.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

setDefaultTimeout(120_000);
afterAll(removeProjects);

const script = (options: string) =>
  `import * as v from "valibot";\nimport { serve, tool } from "mcpbin";\n` +
  `const a = tool({ name: "a", description: "a", input: v.object({}), run: () => "a" });\n` +
  `await serve({ name: "s", version: "1.0.0", tools: [a], ${options} });\n`;

test("unknown keys of http.auth, an upstream's oauth, tasks and json fail build and start with the nearest key", async () => {
  const cases: [string, string][] = [
    [
      `http: { auth: { isuer: "https://idp.example.com" } }`,
      `"http.auth.isuer" is not a known key (did you mean "issuer"?`,
    ],
    [
      `upstreams: { gh: { url: "https://mcp.example.com/mcp", oauth: { clientid: "x" } } }`,
      `"upstreams.gh.oauth.clientid" is not a known key (did you mean "clientId"?`,
    ],
    [`tasks: { stor: "memory" }`, `"tasks.stor" is not a known key (did you mean "store"?`],
    [`json: { bigInt: "string" }`, `"json.bigInt" is not a known key (did you mean "bigint"?`],
  ];
  for (const [options, message] of cases) {
    const dir = writeProject({ "server.ts": script(options) });
    const built = oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir));
    expect(built).toContain(message);
    expect(built).toContain("allowed: ");
    expect(oneLineError(await mcpbin(["dev", "server.ts", "--stdio"], dir))).toContain(message);
  }
});
