// The executable and the CLI as a person meets them: an executable started in a terminal says what it is;
// its --version and --help use its own name; each mcpbin command has its own --help; argument mistakes are
// one clear line.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

setDefaultTimeout(120_000);
let bin: string;
beforeAll(async () => {
  const dir = writeProject({
    "server.ts": `import { serve, tool } from "mcpbin";\nawait serve({ name: "weather", version: "2.3.4", title: "Weather", tools: [tool({ name: "a", description: "a", run: () => 1 })] });\n`,
  });
  const r = await mcpbin(["build", "server.ts", "--outfile", "dist/weather-srv"], dir);
  if (r.code !== 0) throw new Error(r.stderr);
  bin = join(dir, "dist/weather-srv");
}, 120_000);
afterAll(removeProjects);

async function run(cmd: string[]) {
  const p = Bun.spawn(cmd, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  return { code, stdout, stderr };
}

test("an executable's --version and --help use its own name, not mcpbin's", async () => {
  expect(await run([bin, "--version"])).toEqual({ code: 0, stdout: "weather-srv 2.3.4\n", stderr: "" });
  const help = await run([bin, "--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toStartWith(
    "weather-srv 2.3.4: an MCP server (Weather), 1 tool\n\nUsage: weather-srv [--stdio | --http [host:]port] [--version] [--help]\n",
  );
  expect(help.stdout).toContain(`"command": ${JSON.stringify(bin)}`);
  expect(help.stdout).not.toContain("mcpbin:");
});

test("an executable started by hand in a terminal (stdin a TTY) says on stderr what it is and how to configure a client", async () => {
  // script(1) gives the executable a pseudo-terminal; its stdin here is empty, so the session ends at EOF.
  const r = await run(["script", "-qec", bin, "/dev/null"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    "weather-srv 2.3.4: an MCP server (1 tool). It speaks JSON-RPC on stdin/stdout and is meant to be started by an MCP client;",
  );
  expect(r.stdout).toContain(`claude mcp add weather-srv -- ${bin}`);
  // Over a pipe (a client), nothing of that.
  const piped = Bun.spawn([bin], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  piped.stdin.end();
  expect(await piped.exited).toBe(0);
  expect(await new Response(piped.stderr).text()).toBe("");
});

test("mcpbin <command> --help prints that command's usage", async () => {
  for (const command of ["build", "dev", "list", "call", "init", "release"]) {
    const r = await mcpbin([command, "--help"]);
    expect({ command, code: r.code, stderr: r.stderr }).toEqual({ command, code: 0, stderr: "" });
    expect(r.stdout).toStartWith(`Usage:\n  mcpbin ${command} `);
    expect(r.stdout.split("\n").filter((l) => l.startsWith("  mcpbin "))).toHaveLength(1);
  }
});

test("argument-parser mistakes are one clear line naming the command and what it takes", async () => {
  expect(oneLineError(await mcpbin(["build", "--outfle", "x"]))).toBe(
    "mcpbin: build: unknown option --outfle (build takes --config, --outfile, --target, --no-smol); see mcpbin build --help",
  );
  expect(oneLineError(await mcpbin(["build", "--outfile"]))).toBe(
    "mcpbin: build: --outfile needs a value (--outfile VALUE); see mcpbin build --help",
  );
  expect(oneLineError(await mcpbin(["list", "--json=yes"]))).toBe(
    "mcpbin: list: --json takes no value; see mcpbin list --help",
  );
});

test("a --target without bun- is one usage line listing Bun's targets, before anything is compiled", async () => {
  const targets = "bun-linux-x64, bun-linux-arm64, bun-darwin-x64, bun-darwin-arm64, bun-windows-x64";
  const short = await mcpbin([
    "build",
    "examples/toolkit/server.ts",
    "--target",
    "linux-x64",
    "--outfile",
    "/nonexistent/x",
  ]);
  expect(short.code).toBe(2);
  expect(oneLineError(short)).toBe(
    `mcpbin: build: --target "linux-x64" is not a Bun compile target; did you mean "bun-linux-x64"? use one of ${targets} (Bun's -baseline, -modern and -musl variants too)`,
  );
  expect(oneLineError(await mcpbin(["build", "examples/toolkit/server.ts", "--target", "windows"]))).toBe(
    `mcpbin: build: --target "windows" is not a Bun compile target; use one of ${targets} (Bun's -baseline, -modern and -musl variants too)`,
  );
});
