// mcpbin install (issue 21): each client's own configuration file, under a temporary HOME; a backup,
// no duplicate on a second run, --dry-run writes nothing; the written entry starts a working server.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUN, compileFixture, ROOT } from "../helpers/proc.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { oneLineError, type CliRun } from "./run-cli.ts";
import { configFile } from "../../src/cli/install.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";

setDefaultTimeout(60_000);
let bin: string;
const homes: string[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/standard.ts", "install-standard");
}, 120_000);
afterAll(() => {
  removeProjects();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function tempHome(): string {
  const h = mkdtempSync(join(tmpdir(), "mcpbin-home-"));
  homes.push(h);
  return h;
}

/** Runs the CLI with HOME pointing at a temporary directory (and no XDG/APPDATA overrides). */
async function run(args: string[], home: string, cwd = home): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home };
  delete env.XDG_CONFIG_HOME;
  delete env.APPDATA;
  const p = Bun.spawn([BUN, resolve(ROOT, "bin/mcpbin.ts"), ...args], {
    cwd,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  return { code, stdout, stderr };
}

const FILES: Record<string, { file: string; key: string; type?: string }> = {
  "claude-desktop": { file: ".config/Claude/claude_desktop_config.json", key: "mcpServers" },
  "claude-code": { file: ".claude.json", key: "mcpServers", type: "stdio" },
  cursor: { file: ".cursor/mcp.json", key: "mcpServers" },
  vscode: { file: ".config/Code/User/mcp.json", key: "servers", type: "stdio" },
};

for (const [client, where] of Object.entries(FILES)) {
  test(`${client}: writes ${where.file} under HOME (Linux paths); a second run changes nothing; other content is kept and backed up`, async () => {
    const home = tempHome();
    const file = join(home, where.file);
    // A file the user already has: other servers and settings stay.
    mkdirSync(dirname(file), { recursive: true });
    const before =
      client === "vscode"
        ? `// my servers\n{ "servers": { "other": { "type": "stdio", "command": "/bin/other" } }, "inputs": [], }\n`
        : JSON.stringify({ theme: "dark", [where.key]: { other: { command: "/bin/other" } } });
    writeFileSync(file, before);

    const dry = await run(["install", client, bin, "--env", "API_KEY=s3cret", "--dry-run"], home);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toStartWith(`${file} (would add "install-standard"):\n`);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(existsSync(`${file}.bak`)).toBe(false);

    const first = await run(["install", client, bin, "--env", "API_KEY=s3cret"], home);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${file}\n`);
    expect(first.stderr).toBe(`mcpbin: added "install-standard" in ${file} (previous file: ${file}.bak)\n`);
    expect(readFileSync(`${file}.bak`, "utf8")).toBe(before);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    expect(doc[where.key].other.command).toBe("/bin/other");
    if (client !== "vscode") expect(doc.theme).toBe("dark");
    else expect(doc.inputs).toEqual([]);
    expect(doc[where.key]["install-standard"]).toEqual({
      ...(where.type ? { type: where.type } : {}),
      command: bin,
      args: [],
      env: { API_KEY: "s3cret" },
    });

    const written = readFileSync(file, "utf8");
    const second = await run(["install", client, bin, "--env", "API_KEY=s3cret"], home);
    expect(second.stderr).toBe(`mcpbin: "install-standard" is already in ${file}; nothing written\n`);
    expect(readFileSync(file, "utf8")).toBe(written);
    // Another name for the same executable updates that entry instead of adding a second one.
    const renamed = await run(["install", client, bin, "--name", "hub2", "--env", "API_KEY=new"], home);
    expect(renamed.stderr).toStartWith(`mcpbin: updated "install-standard" in ${file}`);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8"))[where.key]).sort()).toEqual([
      "install-standard",
      "other",
    ]);
  });
}

test("the entry written for Claude Desktop starts the server: the SDK client launches exactly command, args and env from the file", async () => {
  const home = tempHome();
  expect((await run(["install", "claude-desktop", bin, "--name", "hub"], home)).code).toBe(0);
  const entry = JSON.parse(readFileSync(join(home, ".config/Claude/claude_desktop_config.json"), "utf8")).mcpServers
    .hub;
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, stderr: "pipe" });
  const seen = tap(transport as unknown as Transport);
  const client = new Client({ name: "desktop", version: "1" });
  await client.connect(transport);
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("zod_search");
    expect(seen.length).toBe(2);
  } finally {
    await client.close();
  }
});

test("--scope project writes the project's file in the working directory; a missing file is created without a backup", async () => {
  const home = tempHome();
  const proj = join(home, "proj");
  mkdirSync(proj);
  const r = await run(["install", "cursor", bin, "--scope", "project"], home, proj);
  expect(r.stderr).toBe(`mcpbin: added "install-standard" in ${join(proj, ".cursor/mcp.json")}\n`);
  expect(JSON.parse(readFileSync(join(proj, ".cursor/mcp.json"), "utf8"))).toEqual({
    mcpServers: { "install-standard": { command: bin, args: [] } },
  });
  expect(existsSync(join(home, ".cursor"))).toBe(false);
});

test("mistakes are one line: an unknown client, a bad --env, Claude Desktop's project scope, a file that is not JSON", async () => {
  const home = tempHome();
  expect(oneLineError(await run(["install", "notepad", bin], home))).toBe(
    'mcpbin: install: unknown client "notepad"; expected one of claude-desktop, claude-code, cursor, vscode',
  );
  expect(oneLineError(await run(["install"], home))).toBe(
    "mcpbin: install: name a client; expected one of claude-desktop, claude-code, cursor, vscode",
  );
  expect(oneLineError(await run(["install", "cursor", bin, "--env", "NOEQUALS"], home))).toBe(
    'mcpbin: install: --env "NOEQUALS" is not KEY=VALUE (KEY: letters, digits, _)',
  );
  expect(oneLineError(await run(["install", "claude-desktop", bin, "--scope", "project"], home))).toBe(
    "mcpbin: install: Claude Desktop has no project configuration; leave out --scope project",
  );
  mkdirSync(join(home, ".cursor"));
  writeFileSync(join(home, ".cursor/mcp.json"), "{ not json");
  expect(oneLineError(await run(["install", "cursor", bin], home))).toStartWith(
    `mcpbin: install: ${join(home, ".cursor/mcp.json")} is not JSON (`,
  );
  expect(readFileSync(join(home, ".cursor/mcp.json"), "utf8")).toBe("{ not json");
});

test("macOS and Windows paths of each client's user configuration", () => {
  const mac = { HOME: "/Users/ada" };
  const win = { USERPROFILE: "C:\\Users\\ada", APPDATA: "C:\\Users\\ada\\AppData\\Roaming" };
  expect(configFile("claude-desktop", "user", "darwin", mac, "/").file).toBe(
    "/Users/ada/Library/Application Support/Claude/claude_desktop_config.json",
  );
  expect(configFile("vscode", "user", "darwin", mac, "/").file).toBe(
    "/Users/ada/Library/Application Support/Code/User/mcp.json",
  );
  expect(configFile("cursor", "user", "darwin", mac, "/").file).toBe("/Users/ada/.cursor/mcp.json");
  expect(configFile("claude-code", "user", "darwin", mac, "/").file).toBe("/Users/ada/.claude.json");
  expect(configFile("claude-desktop", "user", "win32", win, "/").file.replaceAll("/", "\\")).toBe(
    "C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
  );
  expect(configFile("vscode", "user", "win32", win, "/").file.replaceAll("/", "\\")).toBe(
    "C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json",
  );
  expect(configFile("vscode", "user", "linux", { HOME: "/home/ada", XDG_CONFIG_HOME: "/xdg" }, "/").file).toBe(
    "/xdg/Code/User/mcp.json",
  );
  expect(configFile("vscode", "project", "linux", {}, "/work/p")).toEqual({
    file: "/work/p/.vscode/mcp.json",
    key: "servers",
  });
});

test("from source: install builds the script first (like mcpbin build) and names the variables its code reads that --env did not set", async () => {
  const home = tempHome();
  const dir = writeProject({
    "server.ts": `import { serve, tool } from "mcpbin";\nconst k = process.env.SHOP_API_KEY, r = process.env.SHOP_REGION;\nawait serve({ name: "shop", version: "1.0.0", tools: [tool({ name: "t", description: "d", run: () => [k, r].join() })] });\n`,
  });
  const r = await run(["install", "cursor", "server.ts", "--env", "SHOP_REGION=eu"], home, dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("mcpbin: install: the server reads SHOP_API_KEY; pass --env NAME=VALUE to set them\n");
  const entry = JSON.parse(readFileSync(join(home, ".cursor/mcp.json"), "utf8")).mcpServers.shop;
  expect(entry).toEqual({ command: join(dir, "dist/server"), args: [], env: { SHOP_REGION: "eu" } });
  expect(existsSync(entry.command)).toBe(true);
}, 120_000);
