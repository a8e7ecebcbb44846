// A project (examples/project) built into one executable, moved into an empty directory, serving every tool to the official SDK v1 client.
import { afterAll, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpProcess, ROOT } from "../helpers/proc.ts";
import { mcpbin } from "./run-cli.ts";

// Each test spawns the CLI or compiles; the 2-core machine may be busy with other suites.
setDefaultTimeout(60_000);

let out: string;
let home: string;
let bin: string;
let client: Client;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "mcpbin-build-"));
  const r = await mcpbin([
    "build",
    "--config",
    "examples/project/mcpbin.config.ts",
    "--outfile",
    join(out, "project-example"),
  ]);
  if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
  expect(r.stdout.split("\n")[0]).toBe(join(out, "project-example"));
  expect(r.stderr).toContain("mcpbin: 5 tools from 3 modules (1 without an active tool left out)\n");
  // Move the executable away from the sources, into an empty directory.
  home = mkdtempSync(join(tmpdir(), "mcpbin-empty-"));
  bin = join(home, "project-example");
  renameSync(join(out, "project-example"), bin);
  rmSync(out, { recursive: true, force: true });
  expect(readdirSync(home)).toEqual(["project-example"]);
  client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: bin, args: [], cwd: home, stderr: "pipe" }));
}, 60_000);
afterAll(async () => {
  await client?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  if (out) rmSync(out, { recursive: true, force: true });
});

test("the moved executable serves every active tool of both directories to the SDK client", async () => {
  expect(client.getServerVersion()).toEqual({
    name: "project-example",
    title: "Text and math tools",
    version: "1.0.0",
  });
  expect(client.getInstructions()).toBe("Small deterministic text and arithmetic helpers.");
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(["snake_case", "title_case", "word_count", "add", "divide"]);

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as any;
  expect((await call("snake_case", { text: "Hello, big World" })).content).toEqual([
    { type: "text", text: "hello_big_world" },
  ]);
  expect((await call("title_case", { text: "the QUICK fox" })).content).toEqual([
    { type: "text", text: "The Quick Fox" },
  ]);
  expect((await call("word_count", { text: "to be or not to be", top: 2 })).structuredContent).toEqual({
    words: 6,
    top: [
      { word: "be", count: 2 },
      { word: "to", count: 2 },
    ],
  });
  expect((await call("add", { a: 2, b: 40 })).content).toEqual([{ type: "text", text: "42" }]);
  const div = await call("divide", { a: 1, b: 0 });
  expect(div.isError).toBe(true);
  expect(div.content[0].text).toBe("division by zero");
  // The excluded tool is not callable.
  await expect(call("debug_env", {})).rejects.toThrow("Unknown tool: debug_env");
});

test("tools/list from the moved executable is valid for every version and carries no source paths", async () => {
  for (const version of ["2024-11-05", "2025-11-25"]) {
    const p = new McpProcess([bin], { cwd: home });
    try {
      await p.handshake(version);
      const r = await p.request("tools/list", {}, 2, version);
      const raw = JSON.stringify(r);
      expect(r.result.tools).toHaveLength(5);
      for (const leak of ['"source"', "tools/text", "case.ts", ROOT, "/tmp/"]) expect(raw).not.toContain(leak);
    } finally {
      p.kill();
    }
  }
}, 60_000);
