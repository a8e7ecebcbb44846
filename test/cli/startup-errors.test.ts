// A server that cannot start says so in one line: `mcpbin build`/`mcpbin dev` refuse a bad script, and a compiled executable failing at start-up prints `<name>: <message>`, not its source.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BUN, McpProcess } from "../helpers/proc.ts";
import { configSource, removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

afterAll(removeProjects);
// Each test spawns the CLI or compiles; the 2-core machine may be busy with other suites.
setDefaultTimeout(60_000);

const script = (body: string) => `import * as v from "valibot";
import { serve, tool } from "mcpbin";
const a = tool({ name: "a", description: "a", run: () => "a" });
${body}
`;

// What the fresh-user tester wrote; each used to build (exit 0) into an executable that failed at every start.
const BAD: [string, string, string][] = [
  [
    "a duplicate tool",
    script(`await serve({ name: "s", version: "1.0.0", tools: [a, a] });`),
    `mcpbin: two tools are named "a": rename one, or pass only one of them in serve()'s "tools"`,
  ],
  [
    "a dotted tool name",
    script(
      `await serve({ name: "s", version: "1.0.0", tools: [a, tool({ name: "get.user", description: "d", run: () => 1 })] });`,
    ),
    `tool name "get.user" is not accepted`,
  ],
  [
    "a bad json option",
    script(`await serve({ name: "s", version: "1.0.0", tools: [a], json: { nonFinite: "zero" } as never });`),
    `mcpbin: json.nonFinite must be one of "null", "string", "error"; got "zero"`,
  ],
  [
    "a duplicate tool, then process.exit() after serve()",
    script(`await serve({ name: "s", version: "1.0.0", tools: [a, a] });\nprocess.exit(0);`),
    `mcpbin: two tools are named "a"`,
  ],
  [
    "a bad tool option",
    script(
      `await serve({ name: "s", version: "1.0.0", tools: [a, tool({ name: "b", description: "b", timeoutMs: -1, run: () => 1 })] });`,
    ),
    `tool "b": timeoutMs must be a number of milliseconds from 0 (no limit)`,
  ],
];

describe("mcpbin build, dev and release check a script before compiling or serving", () => {
  for (const [what, source, message] of BAD) {
    test(`${what}: one line, nonzero exit, nothing compiled`, async () => {
      const dir = writeProject({ "server.ts": source });
      const built = oneLineError(await mcpbin(["build", "server.ts", "--outfile", "dist/server"], dir));
      expect(built).toStartWith("mcpbin: ");
      expect(built).toContain(message.replace(/^mcpbin: /, ""));
      expect(existsSync(join(dir, "dist/server"))).toBe(false);
      const dev = oneLineError(await mcpbin(["dev", "server.ts"], dir));
      expect(dev).toStartWith("mcpbin: ");
      expect(dev).toContain(message.replace(/^mcpbin: /, ""));
      expect(
        oneLineError(await mcpbin(["release", "server.ts", "--targets", "linux-x64", "--outdir", "rel"], dir)),
      ).toContain(message.replace(/^mcpbin: /, ""));
      expect(existsSync(join(dir, "rel"))).toBe(false);
    });
  }
});

describe("a compiled executable that fails at start-up", () => {
  let bin: string;
  beforeAll(async () => {
    // Builds clean (the check runs without these variables), then fails at start when they are set.
    const dir = writeProject({
      "server.ts": script(`if (process.env.BOOM) throw new Error("boom at start-up");
const explode = tool({ name: "explode", description: "throws", run: () => {
  throw new Error("kaboom");
} });
await serve({ name: "s", version: "1.0.0", tools: process.env.DUP ? [a, a] : [a, explode] });`),
    });
    const r = await mcpbin(["build", "server.ts", "--outfile", "dist/startup-srv"], dir);
    if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
    expect(r.stderr).toContain("mcpbin: 2 tools\n");
    bin = join(dir, "dist/startup-srv");
  }, 60_000);

  const run = async (env: Record<string, string>, args: string[] = []) => {
    const p = Bun.spawn([bin, ...args], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...env },
    });
    p.stdin.end();
    const [code, stdout, stderr] = await Promise.all([
      p.exited,
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
    ]);
    return { code, stdout, stderr };
  };

  test("mcpbin's own error (a duplicate tool): `<executable name>: <message>`, exit 1", async () => {
    expect(oneLineError(await run({ DUP: "1" }))).toBe(
      `startup-srv: two tools are named "a": rename one, or pass only one of them in serve()'s "tools"`,
    );
  });

  test("an unexpected error: its stack, exit 1, and no source text", async () => {
    const r = await run({ BOOM: "1" });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toStartWith("startup-srv: Error: boom at start-up\n");
    expect(r.stderr).toContain("    at ");
    expect(r.stderr).not.toContain("process.env");
    expect(r.stderr.length).toBeLessThan(2000);
    // The executable carries its source map: the stack names the author's file and line, not /$bunfs/root/chunk-….js.
    expect(r.stderr).toMatch(/at .*server\.ts:4:/);
  });

  test("a tool that throws: its line starts with the executable's name, and the stack points at the author's source", async () => {
    const p = new McpProcess([bin]);
    try {
      await p.handshake("2025-11-25");
      const r = await p.request("tools/call", { name: "explode", arguments: {} }, 2);
      expect((r.result as { isError?: boolean }).isError).toBe(true);
      p.closeStdin();
      await p.exited;
      await p.stderrEnd();
      expect(p.stderr).toContain("startup-srv: tool explode threw: Error: kaboom\n");
      expect(p.stderr).not.toContain("mcpbin: ");
      expect(p.stderr).toMatch(/at .*server\.ts:6:/);
      expect(p.stderr).not.toContain("$bunfs");
    } finally {
      p.kill();
    }
  });

  test("without those variables it serves", async () => {
    const p = new McpProcess([bin]);
    try {
      expect((await p.handshake("2025-11-25")).serverInfo).toEqual({ name: "s", version: "1.0.0" });
      p.closeStdin();
      expect(await p.exited).toBe(0);
    } finally {
      p.kill();
    }
  });
});

test("mcpbin dev: an unexpected error at start-up is `mcpbin: <stack>` with exit 1, not Bun's source dump", async () => {
  const dir = writeProject({ "server.ts": script(`throw new Error("boom in dev");`) });
  const p = new McpProcess([BUN, join(import.meta.dir, "../../bin/mcpbin.ts"), "dev", "server.ts"], { cwd: dir });
  expect(await p.exited).toBe(1);
  expect(p.lines).toEqual([]);
  await p.stderrEnd(); // all of it: the process has exited and closed stderr
  expect(p.stderr).toStartWith("mcpbin: Error: boom in dev\n");
  expect(p.stderr).not.toContain('throw new Error("boom in dev")');
});

test("the build's check run gives the script no arguments and stops at serve(): strict argument parsing, stdout chatter and code after serve() do not get in its way", async () => {
  const body = [
    `import { parseArgs } from "node:util";`,
    `parseArgs({ args: process.argv.slice(2), strict: true, options: {} });`,
    `const chatter = setInterval(() => process.stdout.write("tick\\n"), 5);`,
    `await serve({ name: "s", version: "1.0.0", tools: [a, tool({ name: "b", description: "b", input: v.object({ n: v.number() }), run: ({ n }) => n })] });`,
    `clearInterval(chatter);`,
    `process.exit(0);`,
  ].join("\n");
  const dir = writeProject({ "server.ts": script(body) });
  const r = await mcpbin(["build", "server.ts", "--outfile", "dist/server"], dir);
  expect(r.stderr).toContain("mcpbin: 2 tools\n");
  expect(r.code).toBe(0);
  const listed = await mcpbin(["list", "server.ts", "--json"], dir);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain('"name": "b"');
});

test("a project executable failing at start-up: one line naming the executable, exit 1", async () => {
  // Two modules whose tools share a name only when DUP is set: the build (without DUP) passes.
  const mod = (n: string) =>
    `import { tool } from "mcpbin";\nexport const t = tool({ name: process.env.DUP ? "same" : ${JSON.stringify(n)}, description: "d", run: () => 1 });\n`;
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ name: "proj", tools: ["tools"] }),
    "tools/a.ts": mod("a"),
    "tools/b.ts": mod("b"),
  });
  const r = await mcpbin(["build", "--outfile", "dist/proj"], dir);
  if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
  const p = Bun.spawn([join(dir, "dist/proj")], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, DUP: "1" },
  });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
  expect(stderr).toStartWith('proj: two tools are named "same": tools/a.ts and tools/b.ts; rename one');
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
});
