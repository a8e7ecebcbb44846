// `mcpbin build` of a config with upstreams: the printed client configuration has an `env` slot for every
// variable the upstreams' `${VAR}`s read (a client's stdio launch passes only those), the executable started
// with them filled in reaches the upstream, started without them names each upstream and variable left out;
// a relative upstream command fails the build in one line. The same for a script's own serve({ upstreams }).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { pumpLines, stderrLines } from "../client/lines.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

setDefaultTimeout(60_000);

const SRC = resolve(ROOT, "src/index.ts");
const V1 = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-stdio.ts");
let work: string;
let exe: string;
let printed: { command: string; args: string[]; env: Record<string, string> };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcpbin-upstream-build-"));
  writeFileSync(
    join(work, "mcpbin.config.ts"),
    `import { defineConfig } from ${JSON.stringify(SRC)};
export default defineConfig({
  name: "hub", version: "1.0.0", tools: [],
  upstreams: {
    a: { command: ${JSON.stringify(BUN)}, args: [${JSON.stringify(V1)}], env: { K: "\${UPSTREAM_K}" } },
    b: { url: "http://127.0.0.1:\${PORT_X:-1}/mcp", headers: { Authorization: "Bearer \${TOK}" }, start: "lazy" },
    off: { disabled: true, command: "\${NOT_READ}" },
  },
});
`,
  );
  exe = join(work, "hub");
  const r = await mcpbin(["build", "--config", join(work, "mcpbin.config.ts"), "--outfile", exe], work);
  if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
  const line = r.stdout.split("\n").find((l) => l.includes('"mcpServers"'))!;
  printed = JSON.parse(line.trim()).mcpServers.hub;
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

test("the printed configuration has an env slot for each variable the upstreams' ${VAR}s read (args, env, url, headers), none for a disabled one", () => {
  expect(printed.command).toBe(exe);
  expect(printed.env).toEqual({ PORT_X: "", TOK: "", UPSTREAM_K: "" });
});

test("started by the SDK client with the printed slots filled in, the upstream gets its variable", async () => {
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: printed.command,
      args: printed.args,
      env: { ...printed.env, UPSTREAM_K: "from-the-slot", TOK: "t" },
      stderr: "ignore",
    }),
  );
  try {
    const { tools } = await client.listTools();
    const envTool = tools.find((t) => t.name.endsWith("env"))!;
    expect(envTool).toBeDefined();
    const r = await client.callTool({ name: envTool.name, arguments: {} });
    expect(JSON.stringify(r.content)).toContain("from-the-slot");
  } finally {
    await client.close();
  }
});

test("started without them, stderr names each upstream and the variable it left out", async () => {
  const p = Bun.spawn([exe, "--stdio"], { env: {}, stdin: "pipe", stdout: "ignore", stderr: "pipe" });
  const err = stderrLines();
  void pumpLines(p.stderr, err);
  try {
    // Prefixed with the executable's own name, as its --version prints it.
    expect(await err.next(/"a"/)).toBe('hub: upstreams: "a": the environment variable UPSTREAM_K is not set; left out');
    expect(await err.next(/"b"/)).toBe('hub: upstreams: "b": the environment variable TOK is not set; left out');
  } finally {
    p.kill();
    await p.exited;
  }
});

test("a relative upstream command fails the build in one line naming the upstream and the absolute path to give; nothing is built", async () => {
  const dir = mkdtempSync(join(work, "rel-"));
  writeFileSync(
    join(dir, "mcpbin.config.ts"),
    `import { defineConfig } from ${JSON.stringify(SRC)};\nexport default defineConfig({ name: "rel", version: "1.0.0", tools: [], upstreams: { local: { command: "./server" } } });\n`,
  );
  expect(oneLineError(await mcpbin(["build", "--outfile", join(dir, "rel")], dir))).toBe(
    `mcpbin: mcpbin.config.ts: upstream "local": "command" is a relative path ("./server"), which a client would resolve from its own working directory; give an absolute path, such as ${JSON.stringify(join(dir, "server"))}`,
  );
  expect(existsSync(join(dir, "rel"))).toBe(false);
});

test("a script's own serve({ upstreams }): the build's check run records the ${VAR}s (also of an entry the code computes), and the printed slot reaches the upstream", async () => {
  const dir = mkdtempSync(join(work, "script-"));
  // The entry is made by a function, so no reading of the source could see the variable's name beside "upstreams".
  writeFileSync(
    join(dir, "hub.ts"),
    `import { serve } from ${JSON.stringify(SRC)};
const stdio = (name: string, key: string) => ({ [name]: { command: ${JSON.stringify(BUN)}, args: [${JSON.stringify(V1)}], env: { K: "\${" + key + "}" } } });
await serve({ name: "script-hub", version: "1.0.0", tools: [], upstreams: { ...stdio("a", "SCRIPT_K"), off: { disabled: true, command: "\${NOT_READ}" } } });
`,
  );
  const out = join(dir, "script-hub");
  const r = await mcpbin(["build", join(dir, "hub.ts"), "--outfile", out], dir);
  if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
  const entry = JSON.parse(
    r.stdout
      .split("\n")
      .find((l) => l.includes('"mcpServers"'))!
      .trim(),
  ).mcpServers["script-hub"];
  expect(entry.env).toEqual({ SCRIPT_K: "" });
  const client = new Client({ name: "t", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...entry.env, SCRIPT_K: "from-the-script-slot" },
      stderr: "ignore",
    }),
  );
  try {
    const r2 = await client.callTool({ name: "env", arguments: {} });
    expect(JSON.stringify(r2.content)).toContain("from-the-script-slot");
  } finally {
    await client.close();
  }
});

test("a script's own upstream with a relative command fails the build in the same line as a config's; nothing is built", async () => {
  const dir = mkdtempSync(join(work, "script-rel-"));
  writeFileSync(
    join(dir, "hub.ts"),
    `import { serve } from ${JSON.stringify(SRC)};\nawait serve({ name: "rel", version: "1.0.0", tools: [], upstreams: { local: { command: "./server" } } });\n`,
  );
  expect(oneLineError(await mcpbin(["build", "hub.ts", "--outfile", join(dir, "rel")], dir))).toBe(
    `mcpbin: hub.ts: upstream "local": "command" is a relative path ("./server"), which a client would resolve from its own working directory; give an absolute path, such as ${JSON.stringify(join(dir, "server"))}`,
  );
  expect(existsSync(join(dir, "rel"))).toBe(false);
});
