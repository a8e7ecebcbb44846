/** @module The README's quick-start examples (the plain script and the `import.meta.main` form), built with `mcpbin build` and driven over stdio by the official SDK clients v1 and v2. */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { mcpbin } from "../cli/run-cli.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { buildExample, exampleFiles, removeExamples, writeExample } from "./examples.ts";

setDefaultTimeout(120_000); // each example is compiled; the 2-core machine may be busy
afterAll(removeExamples);

/** The executables the tests above built, by example project: shared with the tests below. */
const built = new Map<string, string>();
const examples = [
  { project: "quickstart", source: exampleFiles("quickstart")["server.ts"]! },
  { project: "quickstart-guarded", source: exampleFiles("quickstart-guarded")["server.ts"]! },
];

test("the second quick-start example serves only when run", () => {
  expect(examples.filter((e) => e.source.includes("if (import.meta.main) await serve("))).toHaveLength(1);
});

for (const example of examples) {
  test(`README example "${example.project}": built as the README says, it serves the official SDK clients`, async () => {
    const { bin, stderr, dir } = await buildExample(
      example.project,
      ["server.ts", "--outfile", "dist/my-server"],
      "dist/my-server",
    );
    built.set(example.project, bin);
    expect(stderr).toContain("mcpbin: 1 tool\n");
    // docs/deploy.md: `npx mcpbin install vscode dist/my-server --scope project --dry-run` prints the file, writes nothing.
    const dry = await mcpbin(["install", "vscode", "dist/my-server", "--scope", "project", "--dry-run"], dir);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(JSON.stringify(bin));
    expect(existsSync(join(dir, ".vscode"))).toBe(false);

    const t1 = new StdioV1({ command: bin, args: [], stderr: "pipe" });
    const seen1 = tap(t1 as unknown as Transport);
    const c1 = new ClientV1({ name: "readme-v1", version: "1.0.0" });
    await c1.connect(t1);
    try {
      expect(c1.getServerVersion()).toEqual({ name: "my-server", version: "1.0.0" });
      const { tools } = await c1.listTools();
      expect(tools.map((t) => [t.name, t.description, t.inputSchema.required])).toEqual([
        ["add_numbers", "Add two numbers", ["x", "y"]],
      ]);
      expect(await c1.callTool({ name: "add_numbers", arguments: { x: 2, y: 3 } })).toEqual({
        content: [{ type: "text", text: "5" }],
      });
      const bad = await c1.callTool({ name: "add_numbers", arguments: { x: "2", y: 3 } });
      expect(bad.isError).toBe(true);
    } finally {
      await c1.close();
    }
    expect(seen1.map((s) => s.method)).toEqual(["initialize", "tools/list", "tools/call", "tools/call"]);

    const t2 = new StdioV2({ command: bin, args: [], stderr: "pipe" });
    const seen2 = tap(t2 as unknown as Transport);
    const c2 = new ClientV2({ name: "readme-v2", version: "2.0.0" });
    await c2.connect(t2);
    try {
      const r = await c2.callTool({ name: "add_numbers", arguments: { x: 40, y: 2 } });
      expect(r.content).toEqual([{ type: "text", text: "42" }]);
    } finally {
      await c2.close();
    }
    expect(seen2.length).toBeGreaterThan(0);
  });
}

test("docs/tracing.md: the quick start's executable with OTEL_TRACES_EXPORTER=console prints its spans on stderr", async () => {
  const bin =
    built.get("quickstart") ??
    (await buildExample("quickstart", ["server.ts", "--outfile", "dist/my-server"], "dist/my-server")).bin;
  const t = new StdioV1({
    command: bin,
    args: [],
    stderr: "pipe",
    env: { OTEL_TRACES_EXPORTER: "console", OTEL_SERVICE_NAME: "my-tools" },
  });
  let stderr = "";
  t.stderr?.on("data", (d) => (stderr += String(d)));
  const c = new ClientV1({ name: "readme-tracing", version: "1.0.0" });
  await c.connect(t);
  expect(await c.callTool({ name: "add_numbers", arguments: { x: 1, y: 2 } })).toEqual({
    content: [{ type: "text", text: "3" }],
  });
  await c.close(); // stdin EOF: pending spans are flushed before the exit
  await Bun.sleep(200);
  expect(stderr).toContain("tools/call add_numbers");
  expect(stderr).toContain("my-tools");
});

test("the import.meta.main example imported by a test: its tool works as a function and nothing is served", async () => {
  const dir = writeExample("quickstart-guarded", {
    "server.test.ts": `import { add } from "./server.ts";\nconsole.log(JSON.stringify(await add({ x: 2, y: 3 })));\n`,
  });
  const p = Bun.spawn([process.execPath, join(dir, "server.test.ts")], {
    cwd: dir,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  // stdin stays open: a server would wait on it; an import that does not serve ends by itself.
  const [code, out] = await Promise.all([p.exited, new Response(p.stdout).text()]);
  p.stdin.end();
  expect({ code, out }).toEqual({ code: 0, out: "5\n" });
});
