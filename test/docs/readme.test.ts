/** @module The README's quick-start examples (the plain script and the `import.meta.main` form), built with `mcpbin build` and driven over stdio by the official SDK clients v1 and v2. */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { mcpbin } from "../cli/run-cli.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { BUN, ROOT } from "../helpers/proc.ts";
import { buildExample, codeBlocks, exampleFiles, removeExamples, writeExample } from "./examples.ts";

setDefaultTimeout(120_000); // each example is compiled; the 2-core machine may be busy
afterAll(removeExamples);

/** The executables the tests above built, by example project: shared with the tests below. */
const built = new Map<string, string>();
/** What `mcpbin build` printed for each (the executable's path, then the client configurations). */
const printed = new Map<string, string>();
const examples = [
  { project: "quickstart", source: exampleFiles("quickstart")["server.ts"]! },
  { project: "quickstart-guarded", source: exampleFiles("quickstart-guarded")["server.ts"]! },
];

test("the second quick-start example serves only when run", () => {
  expect(examples.filter((e) => e.source.includes("if (import.meta.main) await serve("))).toHaveLength(1);
});

for (const example of examples) {
  test(`README example "${example.project}": built as the README says, it serves the official SDK clients`, async () => {
    const { bin, stdout, stderr, dir } = await buildExample(
      example.project,
      ["server.ts", "--outfile", "dist/my-server"],
      "dist/my-server",
    );
    built.set(example.project, bin);
    printed.set(example.project, stdout);
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
  const stderrEnded = new Promise((r) => t.stderr?.on("end", r));
  const c = new ClientV1({ name: "readme-tracing", version: "1.0.0" });
  await c.connect(t);
  expect(await c.callTool({ name: "add_numbers", arguments: { x: 1, y: 2 } })).toEqual({
    content: [{ type: "text", text: "3" }],
  });
  await c.close(); // stdin EOF: pending spans are flushed before the exit
  await stderrEnded;
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

/** The quick start's executable, built by the test above or here when run alone. */
async function quickstart(): Promise<{ bin: string; stdout: string }> {
  const bin = built.get("quickstart");
  if (bin !== undefined) return { bin, stdout: printed.get("quickstart")! };
  const b = await buildExample("quickstart", ["server.ts", "--outfile", "dist/my-server"], "dist/my-server");
  return { bin: b.bin, stdout: b.stdout };
}

test.skipIf(process.platform !== "linux" || process.arch !== "x64")(
  "the README's size figures are the quick start's executable on linux-x64, to the MiB (±1)",
  async () => {
    const { bin } = await quickstart();
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const figure = (re: RegExp) => Number(re.exec(readme)?.[1]);
    const MiB = 1024 * 1024;
    const total = statSync(bin).size / MiB;
    const runtime = statSync(BUN).size / MiB; // the pinned Bun that compiled it is the executable's runtime
    const measured = { runtime, code: total - runtime, total };
    const stated = {
      runtime: figure(/the pinned Bun [\d.]+, (\d+) MiB on linux-x64/),
      code: figure(/about (\d+) MiB for a one-tool server/),
      total: figure(/(\d+) MiB in all for the quick start's server on linux-x64/),
    };
    for (const k of ["runtime", "code", "total"] as const)
      expect({ [k]: Math.abs(measured[k] - stated[k]) <= 1 }, `${k}: measured ${measured[k].toFixed(2)} MiB`).toEqual({
        [k]: true,
      });
  },
);

test("docs/deploy.md's client configurations are what mcpbin build prints for the quick start", async () => {
  const { bin, stdout } = await quickstart();
  const printedJson = stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
  const shown = codeBlocks("docs/deploy.md")
    .filter((b) => b.info === "json" && b.text.includes("/abs/path/dist/my-server"))
    .map((b) => JSON.parse(b.text.replaceAll("/abs/path/dist/my-server", bin)));
  expect(shown.length).toBe(2);
  expect(printedJson).toEqual(shown);
  expect(stdout).toContain(`claude mcp add my-server -- ${bin}\n`);
});
