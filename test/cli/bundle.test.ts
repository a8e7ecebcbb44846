// mcpbin bundle (issue 21): an MCP Bundle validated by the official validator (@anthropic-ai/mcpb), unpacked
// by its unpacker, started the way a desktop client starts it, and driven by the official SDK client.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getMcpConfigForManifest, unpackExtension, validateManifest } from "@anthropic-ai/mcpb";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUN, ROOT } from "../helpers/proc.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";
import { mcpConfig, userConfig } from "../../src/cli/mcpb.ts";
import * as v from "valibot";
import { SERVER_JSON } from "../helpers/registry-schema.ts";
import { sha256 } from "../../src/build/archive.ts";
import { scanEnv } from "../../src/cli/env-scan.ts";

afterAll(removeProjects);
setDefaultTimeout(300_000); // three compiles (a profile build and two targets) on a shared, sometimes very busy 2-core machine

const HOST = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
const OTHER_ARCH = HOST.endsWith("x64") ? HOST.replace("x64", "arm64") : HOST.replace("arm64", "x64");

const SERVER = `import * as v from "valibot";
import { serve, tool } from "mcpbin";
import { region } from "./region.ts";
const key = process.env.WEATHER_API_KEY;
const { WEATHER_UNITS } = process.env;
const secret = process.env.MCPBIN_HTTP_TOKEN; // mcpbin's own: never offered as user_config
await serve({ name: "weather-hub", version: "1.2.3", tools: [
  tool({ name: "forecast", description: "the forecast for a city", input: v.object({ city: v.string() }),
    run: ({ city }) => \`\${city}: sunny; key=\${key}; units=\${WEATHER_UNITS || "metric"}; region=\${region()}\` }),
] });
`;
const REGION = `export const region = () => Bun.env["WEATHER_REGION"] || "-";\n`;

test("env scan: the entry and its relative imports, member, bracket and destructuring reads; mcpbin's own variables left out; secrets by name", () => {
  const dir = writeProject({ "server.ts": SERVER, "region.ts": REGION });
  expect(scanEnv(join(dir, "server.ts"))).toEqual([
    { name: "WEATHER_API_KEY", sensitive: true },
    { name: "WEATHER_REGION", sensitive: false },
    { name: "WEATHER_UNITS", sensitive: false },
  ]);
});

test(`bundle --targets ${HOST},${OTHER_ARCH}: valid for the official validator; unpacked and started as a desktop client would, it serves the SDK client with the user's settings`, async () => {
  const dir = writeProject({
    "server.ts": SERVER,
    "region.ts": REGION,
    "package.json": JSON.stringify({
      name: "weather-hub",
      description: "Weather for your assistant",
      author: "Ada <ada@example.com>",
      license: "MIT",
      mcpName: "io.github.ada/weather-hub",
      repository: { type: "git", url: "git+https://github.com/ada/weather-hub.git" },
    }),
  });
  const r = await mcpbin(
    [
      "bundle",
      "server.ts",
      "--targets",
      `${HOST},${OTHER_ARCH}`,
      "--outfile",
      "out/weather.mcpb",
      "--download-url",
      "https://github.com/ada/weather-hub/releases/download/v{version}/{file}",
    ],
    dir,
  );
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`${join(dir, "out/weather.mcpb")}\n`);
  expect(r.stderr).toContain("user_config: WEATHER_API_KEY, WEATHER_REGION, WEATHER_UNITS");
  // server.json for the MCP Registry beside it: the name from package.json's mcpName, the bundle's URL and SHA-256,
  // the variables the server reads (the key a secret); nothing left to edit.
  const registry = v.parse(SERVER_JSON, JSON.parse(readFileSync(join(dir, "out/server.json"), "utf8")));
  expect(registry).toMatchObject({
    name: "io.github.ada/weather-hub",
    version: "1.2.3",
    description: "Weather for your assistant",
    repository: { url: "https://github.com/ada/weather-hub", source: "github" },
  });
  expect(registry.packages).toHaveLength(1);
  expect(registry.packages[0]).toMatchObject({
    registryType: "mcpb",
    identifier: "https://github.com/ada/weather-hub/releases/download/v1.2.3/weather.mcpb",
    fileSha256: sha256(readFileSync(join(dir, "out/weather.mcpb"))),
  });
  expect(registry.packages[0]!.environmentVariables!.map((e) => [e.name, e.isSecret])).toEqual([
    ["WEATHER_API_KEY", true],
    ["WEATHER_REGION", false],
    ["WEATHER_UNITS", false],
  ]);
  expect(r.stderr).not.toContain("before publishing, edit");

  const un = join(dir, "unpacked");
  expect(await unpackExtension({ mcpbPath: join(dir, "out/weather.mcpb"), outputDir: un, silent: true })).toBe(true);
  expect(validateManifest(join(un, "manifest.json"))).toBe(true);
  // The official validator as a process, too.
  const cli = Bun.spawn(
    [BUN, join(ROOT, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js"), "validate", join(un, "manifest.json")],
    { stdout: "pipe", stderr: "pipe" },
  );
  expect(await cli.exited).toBe(0);

  const manifest = JSON.parse(readFileSync(join(un, "manifest.json"), "utf8"));
  expect(manifest).toMatchObject({
    manifest_version: "0.2",
    name: "weather-hub",
    version: "1.2.3",
    description: "Weather for your assistant",
    author: { name: "Ada" },
    license: "MIT",
    server: { type: "binary" },
    tools: [{ name: "forecast", description: "the forecast for a city" }],
    user_config: { weather_api_key: { type: "string", sensitive: true, required: false } },
  });
  expect(manifest.compatibility.platforms).toEqual([process.platform]);
  expect(manifest.user_config.weather_units.sensitive).toBeUndefined();
  expect(manifest.server.mcp_config.platform_overrides[process.platform].args).toEqual([
    "${__dirname}/server/launch.sh",
  ]);

  // What Claude Desktop computes from the manifest (the package's own function), with one setting given.
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: un,
    systemDirs: {} as never,
    userConfig: { weather_api_key: "k-123" },
    pathSeparator: "/",
  });
  expect(config!.command).toBe("/bin/sh"); // two CPUs for this OS: the launcher picks
  const transport = new StdioClientTransport({
    command: config!.command,
    args: config!.args,
    env: { PATH: process.env.PATH ?? "", ...config!.env },
    stderr: "pipe",
  });
  const seen = tap(transport as unknown as Transport);
  const client = new Client({ name: "desktop", version: "1" });
  await client.connect(transport);
  try {
    expect(client.getServerVersion()).toEqual({ name: "weather-hub", version: "1.2.3" });
    const out = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
    expect(out.content).toEqual([{ type: "text", text: "Oslo: sunny; key=k-123; units=metric; region=-" }]);
    expect(seen.map((s) => s.method)).toEqual(["initialize", "tools/call"]);
  } finally {
    await client.close();
  }
});

test("one CPU per OS (here Linux, macOS and Windows): the executable is the command itself, no launcher; user_config defaults to empty so unset settings are not passed as literal placeholders", () => {
  const { config, launcher } = mcpConfig(
    [
      { platform: "linux-x64", exe: "s" },
      { platform: "darwin-arm64", exe: "s" },
      { platform: "windows-x64", exe: "s.exe" },
    ],
    [],
    "s",
  );
  expect(launcher).toBeUndefined();
  expect(config).toEqual({
    command: "${__dirname}/server/linux-x64/s",
    args: [],
    platform_overrides: {
      linux: { command: "${__dirname}/server/linux-x64/s", args: [] },
      darwin: { command: "${__dirname}/server/darwin-arm64/s", args: [] },
      win32: { command: "${__dirname}/server/windows-x64/s.exe", args: [] },
    },
  });
  expect(userConfig([{ name: "API_TOKEN", sensitive: true }])).toEqual({
    api_token: {
      type: "string",
      title: "API_TOKEN",
      description: "Sets the environment variable API_TOKEN, which the server reads",
      required: false,
      default: "",
      sensitive: true,
    },
  });
});

test("bundle refuses an unknown platform in one line before compiling", async () => {
  expect(
    oneLineError(await mcpbin(["bundle", "--config", "examples/project/mcpbin.config.ts", "--targets", "amiga-m68k"])),
  ).toBe(
    'mcpbin: bundle: unknown platform "amiga-m68k"; expected some of linux-x64,linux-arm64,darwin-x64,darwin-arm64,windows-x64',
  );
});
