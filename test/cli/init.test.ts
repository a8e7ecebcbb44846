// mcpbin init: the scaffold's output, and that it tests, lists, calls, builds and serves out of the box (mcpbin linked, offline).
import { afterAll, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, McpProcess, ROOT } from "../helpers/proc.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

// Each test spawns the CLI or compiles; the 2-core machine may be busy with other suites.
setDefaultTimeout(60_000);

let parent: string;
let dir: string;
let init: Awaited<ReturnType<typeof mcpbin>>;

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), "mcpbin-init-"));
  dir = join(parent, "Weather Tools");
  init = await mcpbin(["init", "Weather Tools", "--mcpbin", `file:${ROOT}`], parent);
  // What `npm install` would do with the file: dependency, offline: link mcpbin and valibot.
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(ROOT, join(dir, "node_modules/mcpbin"), "dir");
  symlinkSync(join(ROOT, "node_modules/valibot"), join(dir, "node_modules/valibot"), "dir");
});
afterAll(() => {
  if (parent) rmSync(parent, { recursive: true, force: true });
});

test("init writes the project and says what to do next", () => {
  expect(init.code).toBe(0);
  expect(init.stderr).toBe("");
  expect(init.stdout).toStartWith(
    "Created Weather Tools/ (package name weather-tools): package.json, mcpbin.config.ts, tools/greet.ts, test/greet.test.ts, tsconfig.json, .gitignore, README.md\n",
  );
  expect(init.stdout).toContain("\n  cd 'Weather Tools'\n  npm install && npm test\n");
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  expect(manifest.name).toBe("weather-tools");
  expect(manifest.dependencies.mcpbin).toBe(`file:${ROOT}`);
  expect(manifest.devDependencies.bun).toMatch(/^\d+\.\d+\.\d+$/);
  expect(manifest.allowScripts).toEqual({ bun: true, mcpbin: true });
  expect(manifest.devDependencies.typescript).toMatch(/^\d+\.\d+\.\d+$/);
  expect(manifest.scripts).toMatchObject({ build: "mcpbin build", test: "bun test", typecheck: "tsc --noEmit" });
  const readme = readFileSync(join(dir, "README.md"), "utf8");
  expect(readme).toContain(
    '{ "mcpServers": { "weather-tools": { "command": "/abs/path/dist/weather-tools", "args": [] } } }',
  );
  expect(readme).toContain("claude mcp add weather-tools -- /abs/path/dist/weather-tools");
});

test("init's summary reads naturally for a plain directory name and for the current directory", async () => {
  const plain = await mcpbin(["init", "proj", "--mcpbin", `file:${ROOT}`], parent);
  expect(plain.stdout).toStartWith("Created proj/: package.json, ");
  expect(plain.stdout).toContain("\n  cd proj\n");
  mkdirSync(join(parent, "here"));
  const here = await mcpbin(["init", "--mcpbin", `file:${ROOT}`], join(parent, "here"));
  expect(here.stdout).toStartWith("Created project here in the current directory: package.json, ");
  expect(here.stdout).not.toContain("cd ");
  // An absolute path is repeated as given, not turned into ../something.
  mkdirSync(join(parent, "elsewhere"));
  const abs = join(parent, "abs-proj");
  const absolute = await mcpbin(["init", `${abs}/`, "--mcpbin", `file:${ROOT}`], join(parent, "elsewhere"));
  expect(absolute.stdout).toStartWith(`Created ${abs}/: package.json, `);
  expect(absolute.stdout).toContain(`\n  cd ${abs}\n`);
});

test("the scaffold's own test passes", async () => {
  const p = Bun.spawn([BUN, "test"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  expect(err).toContain(" 2 pass");
  expect(code).toBe(0);
});

test("list and call work in the scaffold with no arguments but the tool", async () => {
  const list = await mcpbin(["list"], dir);
  expect(list.code).toBe(0);
  expect(list.stdout).toContain("greet  Greet  name        name      tools/greet.ts");
  expect(await mcpbin(["call", "greet", '{"name":"Ada"}'], dir)).toEqual({
    code: 0,
    stdout: "Hello, Ada!\n",
    stderr: "",
  });
});

test("the scaffold's tool says a thrown message reaches the client verbatim and names maskErrors()", () => {
  expect(readFileSync(join(dir, "tools/greet.ts"), "utf8")).toContain("add maskErrors() to the server's middleware");
  expect(readFileSync(join(ROOT, "docs/tools.md"), "utf8")).toContain("with `maskErrors()` (docs/middleware.md)");
});

test("the scaffold's tool explains an empty name in words", async () => {
  const empty = await mcpbin(["call", "greet", '{"name":""}'], dir);
  expect(empty.code).not.toBe(0);
  expect(empty.stdout + empty.stderr).toContain("Give the name of someone to greet: it is empty");
});

test("the scaffold builds with plain `mcpbin build` into dist/<name>, which serves greet", async () => {
  const r = await mcpbin(["build"], dir);
  expect(r.code).toBe(0);
  const bin = join(dir, "dist/weather-tools");
  expect(r.stdout.split("\n")[0]).toBe(bin);
  expect(existsSync(bin)).toBe(true);
  const p = new McpProcess([bin], { cwd: parent });
  try {
    await p.handshake("2025-11-25");
    const list = await p.request("tools/list", {}, 2, "2025-11-25");
    expect(list.result.tools.map((t: any) => t.name)).toEqual(["greet"]);
    const call = await p.request("tools/call", { name: "greet", arguments: { name: "Grace" } }, 3, "2025-11-25");
    expect(call.result.content).toEqual([{ type: "text", text: "Hello, Grace!" }]);
  } finally {
    p.kill();
  }
}, 60_000);

test("init refuses to overwrite: one line, nothing written", async () => {
  expect(oneLineError(await mcpbin(["init", dir], parent))).toBe(
    "mcpbin: init: Weather Tools/package.json already exists; nothing written (choose an empty directory)",
  );
});

test("without --mcpbin the scaffold depends on the mcpbin it was made with (not on the npm registry yet)", async () => {
  const r = await mcpbin(["init", "plain"], parent);
  expect(r.code).toBe(0);
  const manifest = JSON.parse(readFileSync(join(parent, "plain", "package.json"), "utf8"));
  expect(manifest.dependencies.mcpbin).toBe(`file:${ROOT}`);
});

test("mcpbin init from an installed package depends on mcpbin@^<version>; from a clone on a file: link", async () => {
  const { defaultMcpbinSpec } = await import("../../src/cli/init.ts");
  const pkg = (await import("../../package.json", { with: { type: "json" } })).default as { version: string };
  expect(defaultMcpbinSpec("/home/me/app/node_modules/mcpbin")).toBe(`^${pkg.version}`);
  expect(defaultMcpbinSpec("C:\\app\\node_modules\\mcpbin")).toBe(`^${pkg.version}`);
  expect(defaultMcpbinSpec("/home/me/src/mcpbin")).toBe("file:/home/me/src/mcpbin");
});

test("mcpbin init installed from a tarball, a folder or git depends on what the installing project asked for (mcpbin is not on the registry)", async () => {
  const { defaultMcpbinSpec } = await import("../../src/cli/init.ts");
  const pkg = (await import("../../package.json", { with: { type: "json" } })).default as { version: string };
  const spec = (mcpbinSpec: string, field = "dependencies"): [string, string] => {
    const app = mkdtempSync(join(parent, "installed-"));
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", [field]: { mcpbin: mcpbinSpec } }));
    return [app, defaultMcpbinSpec(join(app, "node_modules", "mcpbin"))];
  };
  let [app, got] = spec("file:../mcpbin-0.1.0.tgz");
  expect(got).toBe(`file:${join(app, "..", "mcpbin-0.1.0.tgz")}`);
  [app, got] = spec("./vendor/mcpbin", "devDependencies");
  expect(got).toBe(`file:${join(app, "vendor", "mcpbin")}`);
  expect(spec("git+https://example.com/me/mcpbin.git")[1]).toBe("git+https://example.com/me/mcpbin.git");
  expect(spec("^0.1.0")[1]).toBe(`^${pkg.version}`);
});
