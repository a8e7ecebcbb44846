// The `upstreams` config key: a project built into one executable that fronts a compiled mcpbin executable
// (eager) and the official SDK v1 server (lazy) beside its own tools, launched by absolute path from an empty
// directory and driven by the official SDK v1 client; an upstream that answers after its start timeout joins
// the running proxy (tools/list_changed); the config and serve() refuse bad entries naming the key.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { HttpProcess } from "../http/helpers.ts";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, compileFixture, ROOT } from "../helpers/proc.ts";
import { mcpbin } from "../cli/run-cli.ts";
import { checkConfig } from "../../src/config/schema.ts";
import { serve } from "../../src/index.ts";
import { assemble } from "../../src/loader/project.ts";
import { pumpLines, stderrLines } from "./lines.ts";

setDefaultTimeout(60_000);

const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const V1 = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-stdio.ts");
const RAW = resolve(ROOT, "test/fixtures/upstreams/raw.ts");
const SRC = resolve(ROOT, "src/index.ts");

let work: string;
let home: string;
let bin: string;
let mark: string;
const closers: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "mcpbin-upstreams-"));
  home = mkdtempSync(join(tmpdir(), "mcpbin-empty-"));
  mark = join(work, "v1-started");
  const fixtureBin = await compileFixture("test/fixtures/servers/fixture.ts", "upstreams-fx");
  mkdirSync(join(work, "tools"));
  writeFileSync(
    join(work, "tools", "own.ts"),
    `import { tool } from ${JSON.stringify(SRC)};\nexport const hello = tool({ name: "hello", description: "Own tool", run: () => "hello from the hub" });\nexport const echo = tool({ name: "echo", description: "Own echo", run: () => "own echo" });\n`,
  );
  writeFileSync(
    join(work, "mcpbin.config.ts"),
    `import { defineConfig } from ${JSON.stringify(SRC)};
export default defineConfig({
  name: "hub", version: "1.0.0", tools: ["tools"],
  upstreams: {
    fx: { command: ${JSON.stringify(fixtureBin)}, include: ["echo", "search", "add"] },
    v1: { command: ${JSON.stringify(BUN)}, args: [${JSON.stringify(V1)}], env: { CONFIGURED: "\${M18A_RUNTIME}", MARK_FILE: ${JSON.stringify(mark)} }, start: "lazy", exclude: ["wait"] },
  },
});
`,
  );
  // The variable is unset at build time: ${VAR} is expanded when the executable starts, never baked in.
  const r = await mcpbin(["build", "--config", join(work, "mcpbin.config.ts"), "--outfile", join(home, "hub")], work);
  if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
  bin = join(home, "hub");
  expect(readdirSync(home)).toEqual(["hub"]);
}, 120_000);
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});
afterAll(() => {
  for (const d of [work, home]) if (d) rmSync(d, { recursive: true, force: true });
});

const text = (r: Record<string, unknown>) => (r.content as { text: string }[])[0]!.text;

test("the built executable fronts an mcpbin executable (eager) and an SDK v1 server (lazy) beside its own tools; shutdown ends both", async () => {
  const transport = new StdioClientTransport({
    command: bin,
    args: [],
    cwd: home,
    stderr: "pipe",
    env: { PATH: process.env.PATH!, M18A_RUNTIME: "at-run-time" },
  });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
  // Lazy: the eager upstream answered before the handshake did; the lazy one has not been started.
  expect(existsSync(mark)).toBe(false);

  const { tools } = await client.listTools();
  expect(existsSync(mark)).toBe(true);
  const names = tools.map((t) => t.name);
  // Own names are never taken (fx's echo is prefixed); fx's search was exposed before the lazy v1 joined with its own.
  expect(names.slice(0, 2).sort()).toEqual(["echo", "hello"]);
  expect(names.sort()).toEqual([
    "add",
    "echo",
    "env",
    "fx__echo",
    "get_user",
    "hello",
    "meta",
    "pid",
    "search",
    "steps",
    "v1__search",
    "weather",
  ]);

  expect(text(await client.callTool({ name: "hello", arguments: {} }))).toBe("hello from the hub");
  expect(text(await client.callTool({ name: "echo", arguments: {} }))).toBe("own echo");
  expect(text(await client.callTool({ name: "fx__echo", arguments: { text: "via fx" } }))).toBe("via fx");
  expect(text(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } }))).toBe("5");
  expect(text(await client.callTool({ name: "v1__search", arguments: { q: "bun" } }))).toBe("v1:bun");
  const w = await client.callTool({ name: "weather", arguments: { city: "Oslo" } });
  expect(w.structuredContent).toEqual({ temperature: 21.5, city: "Oslo" });
  const env = JSON.parse(text(await client.callTool({ name: "env", arguments: {} })));
  expect(env.CONFIGURED).toBe("at-run-time");
  expect(env.M18A_RUNTIME).toBeUndefined();
  expect(stderr.lines.some((l) => l.startsWith("[v1] sdk-v1 upstream ready"))).toBe(true);

  // Shutdown: stdin closes, the executable ends both children before it exits.
  const v1Pid = Number(text(await client.callTool({ name: "pid", arguments: {} })));
  closers.pop();
  await client.close();
  expect(() => process.kill(v1Pid, 0)).toThrow();
});

test("an upstream that answers after its start timeout is left out, then joins: its tools are added and the client gets tools/list_changed", async () => {
  const file = join(work, "late.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        v1: { command: BUN, args: [V1] },
        late: { command: BUN, args: [RAW, "late"], startTimeoutMs: 300 },
      },
    }),
  );
  const transport = new StdioClientTransport({
    command: BUN,
    args: [MCPBIN, "proxy", "--servers", file],
    stderr: "pipe",
  });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  const client = new Client({ name: "e2e", version: "1.0.0" });
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  await client.connect(transport);
  closers.push(() => client.close());
  await stderr.next(
    /^mcpbin: upstream "late" left out: no answer to the handshake within 300 ms; its tools join when it answers$/,
  );
  const before = (await client.listTools()).tools.map((t) => t.name);
  expect(before).toContain("search");
  expect(before).not.toContain("a1");
  // The other upstream is unaffected meanwhile.
  expect(text(await client.callTool({ name: "search", arguments: { q: "x" } }))).toBe("v1:x");

  const pid = Number((await stderr.next(/^\[late\] late upstream waiting, pid \d+$/)).split(" ").pop());
  process.kill(pid, "SIGUSR1");
  await changed;
  await stderr.next(/^mcpbin: upstream "late" joined: 5 tools$/);
  const after = (await client.listTools()).tools.map((t) => t.name);
  expect(after).toEqual([...before, "a1", "a2", "b1", "b2", "c1"]);
  expect(text(await client.callTool({ name: "b2", arguments: {} }))).toBe("b2");
});

test("SDK v2 client (2026-07-28): a late upstream's tools arrive on the listen stream; killed, its restart that does not answer makes the call an isError result naming it within its start timeout", async () => {
  const file = join(work, "late-v2.json");
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { late: { command: BUN, args: [RAW, "late"], startTimeoutMs: 300 } } }),
  );
  const transport = new StdioV2({ command: BUN, args: [MCPBIN, "proxy", "--servers", file], stderr: "pipe" });
  const stderr = stderrLines();
  void pumpLines(transport.stderr as never, stderr);
  let onTools: (names: string[]) => void = () => {};
  const client = new ClientV2({ name: "v2-client", version: "1.0.0" }, {
    versionNegotiation: { mode: "auto" },
    listChanged: {
      tools: {
        onChanged: (_e: unknown, tools: { name: string }[] | null) => onTools((tools ?? []).map((t) => t.name)),
      },
    },
  } as never);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  expect((await client.listTools()).tools).toEqual([]);
  const joined = new Promise<string[]>((resolve) => (onTools = resolve));
  const first = Number((await stderr.nth(/^\[late\] late upstream waiting, pid \d+$/, 1)).split(" ").pop());
  process.kill(first, "SIGUSR1");
  expect(await joined).toEqual(["a1", "a2", "b1", "b2", "c1"]);
  expect(text(await client.callTool({ name: "a1", arguments: {} }))).toBe("a1");

  // Killed: the restart does not answer (the new process holds every line), so the call fails within 300 ms, naming it.
  process.kill(first, "SIGKILL");
  await stderr.next(/^mcpbin: upstream "late": the server process was ended by SIGKILL; restarting in \d+ ms$/);
  const failed = await client.callTool({ name: "b2", arguments: {} });
  expect(failed.isError).toBe(true);
  expect(text(failed)).toBe("Tool b2 failed: late: no answer to the handshake within 300 ms");
  // When the new process answers, the same tools serve again.
  const second = Number((await stderr.nth(/^\[late\] late upstream waiting, pid \d+$/, 2)).split(" ").pop());
  process.kill(second, "SIGUSR1");
  expect(text(await client.callTool({ name: "b2", arguments: {} }))).toBe("b2");
});

test("proxy --http: SIGTERM ends every child before the proxy exits, the ones still starting too", async () => {
  const file = join(work, "term.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        v1: { command: BUN, args: [V1] },
        mute: { command: BUN, args: [RAW, "late"], startTimeoutMs: 200 },
      },
    }),
  );
  const p = await HttpProcess.start([BUN, MCPBIN, "proxy", "--servers", file]);
  closers.push(() => p.kill());
  // Each child's stderr reaches ours prefixed with its name.
  await p.waitForStderr(/^\[v1\] sdk-v1 upstream ready$/m);
  const mutePid = Number(
    /^\[mute\] late upstream waiting, pid (\d+)$/m.exec(
      await p.waitForStderr(/^\[mute\] late upstream waiting, pid \d+$/m),
    )![1],
  );
  const client = new ClientV2({ name: "v2-http", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new HttpV2(new URL(p.url)));
  const v1Pid = Number(text(await client.callTool({ name: "pid", arguments: {} })));
  await client.close();
  p.kill("SIGTERM");
  expect(await p.exited).toBe(0);
  expect(() => process.kill(v1Pid, 0)).toThrow();
  expect(() => process.kill(mutePid, 0)).toThrow();
});

test("a bad upstreams entry: the config and serve() name the key and what is expected", () => {
  const base = { name: "x", version: "1", tools: ["tools"] };
  const err = (c: unknown) => {
    try {
      checkConfig(c, "mcpbin.config.ts");
    } catch (e) {
      return (e as Error).message;
    }
    return "accepted";
  };
  expect(err({ ...base, upstreams: { gh: { command: "gh-mcp", args: "--stdio" } } })).toBe(
    'mcpbin.config.ts: "upstreams.gh.args" must be an array of strings; got "--stdio"',
  );
  expect(err({ ...base, upstreams: { gh: { args: [] } } })).toBe(
    'mcpbin.config.ts: "upstreams.gh" needs "command" (a program to run over stdio) or "url" (a Streamable HTTP endpoint), one of them',
  );
  expect(err({ ...base, upstreams: { gh: { command: "x", strat: "lazy" } } })).toStartWith(
    'mcpbin.config.ts: "upstreams.gh.strat" is not a known key (did you mean "start"? allowed: command, args, env,',
  );
  // A typo of "command" gets the key it meant (the entry then also lacks "command": the unknown key is said first).
  expect(err({ ...base, upstreams: { x: { comand: "./server" } } })).toStartWith(
    'mcpbin.config.ts: "upstreams.x.comand" is not a known key (did you mean "command"? allowed: command, args,',
  );
  expect(err({ ...base, upstreams: { gh: { command: "x", start: "later" } } })).toStartWith(
    'mcpbin.config.ts: "upstreams.gh.start" must be one of "eager", "lazy"',
  );
  expect(err({ ...base, upstreams: { "g.h": { command: "x" } } })).toStartWith(
    'mcpbin.config.ts: "upstreams.g.h" must be an object of server name (A-Z a-z 0-9 _ -)',
  );
  expect(err({ ...base, upstreamNaming: "prefixed" })).toStartWith(
    'mcpbin.config.ts: "upstreamNaming" must be one of "on-collision", "prefix", "none"',
  );
  expect(err({ ...base, tools: [] })).toEndWith('(empty; it may be empty only beside "upstreams" or "sessions")');
  expect(
    err({
      ...base,
      tools: [],
      upstreams: { gh: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${T}" } } },
    }),
  ).toBe("accepted");
  expect(() =>
    serve({ name: "x", version: "1", tools: [], upstreams: { gh: { command: "x", timeoutMs: -1 } } }),
  ).toThrow('serve(): "upstreams.gh.timeoutMs" must be an integer number of milliseconds');
  // A project of upstreams only: no own tool is no mistake, and the entries reach serve() as written (expanded at start).
  const only = assemble(
    { name: "x", version: "1", tools: [], upstreams: { gh: { command: "gh", env: { T: "${T}" } } } },
    "mcpbin.config.ts",
    [],
    () => {},
  );
  expect(only.tools).toEqual([]);
  expect(only.upstreams).toEqual({ gh: { command: "gh", env: { T: "${T}" } } });
  expect(() => assemble({ name: "x", version: "1", tools: [] }, "mcpbin.config.ts", [], () => {})).toThrow(
    "no tool, resource or prompt is active",
  );
});
