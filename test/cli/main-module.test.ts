// Executables that serve nothing: `if (import.meta.main) await serve(...)` serves under every command that
// runs a script; a script that never calls serve() fails the build in one line; an executable that ends
// without having served exits 1 saying so.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT, McpProcess, initLine } from "../helpers/proc.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

setDefaultTimeout(120_000); // builds and release compile on a busy 2-core machine
afterAll(removeProjects);

const GUARDED = `import * as v from "valibot";
import { serve, tool } from "mcpbin";
import { plus } from "./lib.ts";
export const add = tool({ name: "add", description: "add", input: v.object({ x: v.number(), y: v.number() }), run: ({ x, y }) => plus(x, y) });
if (import.meta.main) await serve({ name: "guarded", version: "1.0.0", tools: [add] });
`;
// A module the script imports is not the program: its own guard stays false.
const LIB = `export const plus = (a: number, b: number) => a + b;\nif (import.meta.main) throw new Error("lib.ts is not the program");\n`;

async function pingAndList(cmd: string[], cwd: string): Promise<void> {
  const p = new McpProcess(cmd, { cwd });
  try {
    p.send(initLine("2025-06-18"));
    expect((await p.response(1)).result.serverInfo.name).toBe("guarded");
    p.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
    expect((await p.response(2)).result.tools.map((t: { name: string }) => t.name)).toEqual(["add"]);
  } finally {
    p.kill();
  }
}

test("import.meta.main guard: build, dev, list, call and release serve the script as the program (and only the script)", async () => {
  const dir = writeProject({ "server.ts": GUARDED, "lib.ts": LIB });
  const built = await mcpbin(["build", "server.ts", "--outfile", "dist/guarded"], dir);
  expect(built.stderr).not.toContain("warning");
  expect(built.code).toBe(0);
  await pingAndList([join(dir, "dist/guarded")], dir);
  await pingAndList([BUN, join(ROOT, "bin/mcpbin.ts"), "dev", "server.ts"], dir);
  const listed = await mcpbin(["list", "server.ts", "--json"], dir);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name)).toEqual(["add"]);
  const called = await mcpbin(["call", "add", '{"x":2,"y":3}', "server.ts"], dir);
  expect({ code: called.code, stdout: called.stdout }).toEqual({ code: 0, stdout: "5\n" });
  const released = await mcpbin(["release", "server.ts", "--targets", "linux-x64", "--outdir", "rel"], dir);
  expect(released.code).toBe(0);
  expect(readdirSync(join(dir, "rel")).sort()).toEqual([
    "SHA256SUMS",
    "guarded-1.0.0-linux-x64.mcpb",
    "guarded-1.0.0-linux-x64.tar.gz",
    "server.json",
  ]);
});

test("a script that never calls serve() fails build and release with one line, nothing compiled", async () => {
  const dir = writeProject({ "plain.ts": `console.log("not a server");\n` });
  const line = oneLineError(await mcpbin(["build", "plain.ts", "--outfile", "dist/plain"], dir));
  expect(line).toBe(
    "mcpbin: plain.ts did not call serve() while loading; pass a script that ends with serve({...}), or a config with --config",
  );
  expect(existsSync(join(dir, "dist/plain"))).toBe(false);
  expect(
    oneLineError(await mcpbin(["release", "plain.ts", "--targets", "linux-x64", "--outdir", "rel"], dir)),
  ).toContain("did not call serve() while loading");
});

test("an executable (and mcpbin dev) that ends without having called serve() says so and exits 1, never 0 silently", async () => {
  const dir = writeProject({
    "maybe.ts": `import { serve, tool } from "mcpbin";\nconst a = tool({ name: "a", description: "a", run: () => "a" });\nif (!process.env.SKIP_SERVE) await serve({ name: "m", version: "1.0.0", tools: [a] });\n`,
  });
  const built = await mcpbin(["build", "maybe.ts", "--outfile", "dist/maybe"], dir);
  expect(built.code).toBe(0);
  const run = async (cmd: string[]) => {
    const p = Bun.spawn(cmd, {
      cwd: dir,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, SKIP_SERVE: "1" },
    });
    const [code, stdout, stderr] = await Promise.all([
      p.exited,
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
    ]);
    return { code, stdout, stderr };
  };
  expect(await run([join(dir, "dist/maybe")])).toEqual({
    code: 1,
    stdout: "",
    stderr: "maybe: the script ended without calling serve(), so nothing was served\n",
  });
  expect(await run([BUN, join(ROOT, "bin/mcpbin.ts"), "dev", "maybe.ts"])).toEqual({
    code: 1,
    stdout: "",
    stderr: "mcpbin: maybe.ts ended without calling serve(), so nothing was served\n",
  });
});
