// What `mcpbin build` leaves a person with: the client configuration it prints works as printed (an `env`
// slot for each variable the server reads; `--stdio` and an HTTP `url` for a server configured for HTTP),
// driven by the official SDK client; and a build killed mid-way (SIGINT, SIGTERM) leaves no temporary
// directories behind.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtempSync, readdirSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";
import { mcpbin } from "./run-cli.ts";

setDefaultTimeout(120_000);
afterAll(removeProjects);

/** A free loopback port (bound and released). */
function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  void s.stop(true);
  return port;
}

/** The JSON of the printed line after `heading` (the one-line configurations). */
function configAfter(stdout: string, heading: string): any {
  const lines = stdout.split("\n");
  const i = lines.findIndex((l) => l.startsWith(heading));
  expect(i).toBeGreaterThan(-1);
  return JSON.parse(lines[i + 1]!.trim());
}

test("the printed configuration carries an env slot for each variable the server reads, and an HTTP url when it is configured for HTTP; both work as printed", async () => {
  const port = freePort();
  const dir = writeProject({
    "lib.ts": `export const units = () => process.env.WEATHER_UNITS ?? "-";\n`,
    "server.ts": [
      `import { serve, tool } from "mcpbin";`,
      `import { units } from "./lib.ts";`,
      `const { WEATHER_API_KEY } = process.env;`,
      `const env = tool({ name: "env", description: "Says what it was given.", run: () => \`\${WEATHER_API_KEY ?? "-"} \${units()}\` });`,
      `await serve({ name: "weather", version: "1.0.0", tools: [env], http: { port: ${port} } });`,
    ].join("\n"),
  });
  const r = await mcpbin(["build", "server.ts", "--outfile", "dist/weather"], dir);
  expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
  const bin = join(dir, "dist/weather");
  expect(r.stdout).toContain('The server reads WEATHER_API_KEY, WEATHER_UNITS: give each a value under "env"');
  const desktop = configAfter(r.stdout, "Claude Desktop").mcpServers.weather;
  expect(desktop).toEqual({ command: bin, args: ["--stdio"], env: { WEATHER_API_KEY: "", WEATHER_UNITS: "" } });
  expect(configAfter(r.stdout, "VS Code").servers.weather).toEqual({ type: "stdio", ...desktop });
  expect(r.stdout).toContain(
    `claude mcp add weather -e WEATHER_API_KEY=VALUE -e WEATHER_UNITS=VALUE -- ${bin} --stdio`,
  );

  // stdio, as a client launches it from the printed configuration with the slots filled in.
  const stdio = new Client({ name: "t", version: "1" });
  await stdio.connect(
    new StdioClientTransport({
      command: desktop.command,
      args: desktop.args,
      env: { PATH: process.env.PATH!, WEATHER_API_KEY: "k1", WEATHER_UNITS: "metric" },
      stderr: "ignore",
    }),
  );
  try {
    expect((await stdio.callTool({ name: "env", arguments: {} })).content).toEqual([
      { type: "text", text: "k1 metric" },
    ]);
  } finally {
    await stdio.close();
  }

  // HTTP: the executable started with no arguments serves the printed url.
  const url = `http://127.0.0.1:${port}/mcp`;
  expect(r.stdout).toContain(`Cursor: { "mcpServers": { "weather": {"url":"${url}"} } }`);
  expect(r.stdout).toContain(`Claude Code: claude mcp add --transport http weather ${url}`);
  expect(r.stdout).toContain(`VS Code: { "servers": { "weather": {"type":"http","url":"${url}"} } }`);
  const server = Bun.spawn([bin], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    env: { ...process.env, MCPBIN_HTTP_TOKEN: "", WEATHER_API_KEY: "k2" },
  });
  try {
    const reader = server.stderr.getReader();
    let err = "";
    while (!err.includes("MCP over HTTP at")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the server ended before listening: ${err}`);
      err += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    // Its own name, as its --version and banner say, not "mcpbin".
    expect(err).toContain(`weather: MCP over HTTP at ${url}\n`);
    const http = new Client({ name: "t", version: "1" });
    await http.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await http.callTool({ name: "env", arguments: {} })).content).toEqual([{ type: "text", text: "k2 -" }]);
    await http.close();
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
});

test("a stdio server that reads no environment gets the plain configuration", async () => {
  const dir = writeProject({
    "server.ts": `import { serve, tool } from "mcpbin";\nawait serve({ name: "plain", version: "1.0.0", tools: [tool({ name: "a", description: "a", run: () => 1 })] });\n`,
  });
  const r = await mcpbin(["build", "server.ts", "--outfile", "dist/plain"], dir);
  expect(r.code).toBe(0);
  expect(configAfter(r.stdout, "Claude Desktop").mcpServers.plain).toEqual({
    command: join(dir, "dist/plain"),
    args: [],
  });
  expect(r.stdout).not.toContain("Over HTTP");
  expect(r.stdout).not.toContain("The server reads");
});

/** Starts a build with its own TMPDIR, kills it with `signal` once a directory named `prefix…` appears there, and returns what is left. */
async function killedBuild(
  prefix: string,
  signal: "SIGINT" | "SIGTERM",
): Promise<{ code: number; left: string[]; outLeft: string[]; stderr: string }> {
  const tmp = mkdtempSync(join(tmpdir(), "mcpbin-killed-"));
  const dir = writeProject({
    "server.ts": `import { serve, tool } from "mcpbin";\nawait serve({ name: "k", version: "1.0.0", tools: [tool({ name: "a", description: "a", run: () => 1 })] });\n`,
  });
  try {
    const seen = new Promise<void>((done, fail) => {
      const w = watch(tmp, (_e, name) => {
        if (name?.startsWith(prefix)) (w.close(), done());
      });
      setTimeout(() => (w.close(), fail(new Error(`no ${prefix}* directory appeared in 60 s`))), 60_000).unref();
    });
    const p = Bun.spawn([BUN, resolve(ROOT, "bin/mcpbin.ts"), "build", "server.ts", "--outfile", "dist/k"], {
      cwd: dir,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, TMPDIR: tmp },
    });
    await seen;
    p.kill(signal);
    const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    const outLeft = (() => {
      try {
        return readdirSync(join(dir, "dist")).filter((n) => n.startsWith("."));
      } catch {
        return [];
      }
    })();
    return { code, left: readdirSync(tmp), outLeft, stderr };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

test("a build interrupted by SIGINT during its check run leaves no temporary directory (and exits 130)", async () => {
  const r = await killedBuild("mcpbin-check-", "SIGINT");
  expect({ code: r.code, left: r.left, outLeft: r.outLeft }).toEqual({ code: 130, left: [], outLeft: [] });
  expect(r.stderr).toContain("mcpbin: interrupted (SIGINT); temporary files removed");
});

test("a build terminated by SIGTERM while compiling leaves no temporary directory (and exits 143)", async () => {
  const r = await killedBuild("mcpbin-build-", "SIGTERM");
  expect({ code: r.code, left: r.left, outLeft: r.outLeft }).toEqual({ code: 143, left: [], outLeft: [] });
});
