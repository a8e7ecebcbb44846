// End to end from a packed tarball: `npm pack`, installed into a fresh folder with no clone and no bun on PATH,
// gives a working `mcpbin` command whose build serves the official SDK client (issue 14, "from a packed package").
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { ROOT } from "../helpers/proc.ts";

setDefaultTimeout(240_000);
const node = Bun.which("node");
const npm = Bun.which("npm");
let dir = "";
let tgz = "";
// Node and npm only: the user's PATH has no bun.
const env = {
  ...process.env,
  PATH: [node, npm]
    .map((p) => p!.replace(/\/[^/]+$/, ""))
    .concat("/usr/bin", "/bin")
    .join(":"),
};

async function run(cmd: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn(cmd, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  if (!node || !npm) return;
  dir = mkdtempSync(join(tmpdir(), "mcpbin-packed-"));
  const packed = await run([npm, "pack", "--silent", "--pack-destination", dir], ROOT);
  expect(packed.code).toBe(0);
  tgz = join(dir, packed.stdout.trim().split("\n").pop()!);
  const user = join(dir, "user");
  await Bun.write(join(user, "package.json"), JSON.stringify({ name: "user-tools", private: true, type: "module" }));
  const installed = await run([npm, "install", "--no-audit", "--no-fund", "--prefer-offline", tgz], user);
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
}, 240_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test.skipIf(!node || !npm)(
  "the installed mcpbin command runs on the pinned Bun with no bun on PATH, builds an import.meta.main script, and the executable serves the SDK client",
  async () => {
    expect(Bun.which("bun", { PATH: env.PATH })).toBeNull();
    const user = join(dir, "user");
    const version = await run([join(user, "node_modules/.bin/mcpbin"), "--version"], user);
    expect(version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });

    writeFileSync(
      join(user, "server.ts"),
      [
        'import * as v from "valibot";',
        'import { serve, tool } from "mcpbin";',
        'export const add = tool({ name: "add", description: "Add two numbers", input: v.object({ a: v.number(), b: v.number() }), run: ({ a, b }) => String(a + b) });',
        'if (import.meta.main) await serve({ name: "packed", version: "1.0.0", tools: [add] });',
        "",
      ].join("\n"),
    );
    // valibot comes with mcpbin (a dependency), so the user's import resolves through the installed package.
    const built = await run(
      [join(user, "node_modules/.bin/mcpbin"), "build", "server.ts", "--outfile", join(user, "dist/packed")],
      user,
    );
    if (built.code !== 0) throw new Error(`build failed:\n${built.stderr}`);
    const transport = new StdioClientTransport({
      command: join(user, "dist/packed"),
      args: [],
      stderr: "pipe",
      cwd: dir,
    });
    const client = new Client({ name: "packed-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("packed");
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add"]);
      const r = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
      expect(r.content).toEqual([{ type: "text", text: "42" }]);
    } finally {
      await client.close();
    }
  },
);

test.skipIf(!node || !npm)(
  "mcpbin init from a tarball install depends on that tarball, and the scaffold installs, tests and calls its tool",
  async () => {
    const user = join(dir, "user");
    const r = await run([join(user, "node_modules/.bin/mcpbin"), "init", "scaffold"], user);
    expect(r.code).toBe(0);
    const scaffold = join(user, "scaffold");
    // mcpbin is not on the npm registry: ^<version> would fail `npm install` with a 404.
    expect(JSON.parse(readFileSync(join(scaffold, "package.json"), "utf8")).dependencies.mcpbin).toBe(`file:${tgz}`);
    const installed = await run([npm!, "install", "--no-audit", "--no-fund", "--prefer-offline"], scaffold);
    if (installed.code !== 0) throw new Error(`npm install in the scaffold failed:\n${installed.stderr}`);
    const tested = await run([npm!, "test"], scaffold);
    if (tested.code !== 0) throw new Error(`npm test in the scaffold failed:\n${tested.stdout}\n${tested.stderr}`);
    expect(tested.stderr).toContain("2 pass");
    const typed = await run([npm!, "run", "typecheck"], scaffold);
    if (typed.code !== 0)
      throw new Error(`npm run typecheck in the scaffold failed:\n${typed.stdout}\n${typed.stderr}`);
    const called = await run(
      [join(scaffold, "node_modules/.bin/mcpbin"), "call", "greet", '{"name": "Ada"}'],
      scaffold,
    );
    expect(called).toMatchObject({ code: 0, stdout: "Hello, Ada!\n" });
  },
);
