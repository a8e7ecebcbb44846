/** @module The --help of an executable whose server defaults to Streamable HTTP describes HTTP: the URL it serves and a client configuration for it, and "--stdio" for a client that starts it. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin } from "./run-cli.ts";

setDefaultTimeout(120_000);
let bin: string;
beforeAll(async () => {
  const dir = writeProject({
    "server.ts": `import { serve, tool } from "mcpbin";\nawait serve({ name: "hub", version: "1.0.0", http: { port: 8931 }, tools: [tool({ name: "a", description: "a", run: () => 1 })] });\n`,
  });
  const r = await mcpbin(["build", "server.ts", "--outfile", "dist/hub-srv"], dir);
  if (r.code !== 0) throw new Error(r.stderr);
  bin = join(dir, "dist/hub-srv");
}, 120_000);
afterAll(removeProjects);

test("an HTTP-default executable's --help describes HTTP and configures a client for its URL", async () => {
  const p = Bun.spawn([bin, "--help"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out] = await Promise.all([p.exited, new Response(p.stdout).text()]);
  expect(code).toBe(0);
  expect(out).toContain(
    "  (no option)         serve Streamable HTTP at http://127.0.0.1:8931/mcp (this server's default;",
  );
  expect(out).toContain("  --stdio             serve MCP over stdio instead");
  expect(out).not.toContain("(no option)         serve MCP over stdio");
  expect(out).toContain(`{ "mcpServers": { "hub-srv": { "url": "http://127.0.0.1:8931/mcp" } } }`);
  expect(out).toContain("claude mcp add --transport http hub-srv http://127.0.0.1:8931/mcp");
  expect(out).toContain(`"command": ${JSON.stringify(bin)}, "args": ["--stdio"]`);
  expect(out).not.toContain(`"args": []`);
});
