// mcpbin proxy in front of real upstreams: the official SDK v1 server (stdio), the official SDK v2 server
// (Streamable HTTP, 2026-07-28), a compiled mcpbin executable (stdio, by absolute path) and one upstream that
// never answers; driven by the official SDK v1 client (legacy) and v2 client (2026-07-28) over stdio and HTTP.
// Every response the clients receive is validated against the official schema of its version (tap, validatingFetch).
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUN, compileFixture, ROOT } from "../helpers/proc.ts";
import { HttpProcess, validatingFetch } from "../http/helpers.ts";
import { pumpLines, stderrLines } from "./lines.ts";
import { expectSteps } from "./steps.ts";
import { progressOnWire, v1Front, v2Front } from "./front.ts";

const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const V1 = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-stdio.ts");
const RAW = resolve(ROOT, "test/fixtures/upstreams/raw.ts");
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

let v2: HttpProcess;
let fixtureBin: string;
let serversFile: string;
const closers: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  [v2, fixtureBin] = await Promise.all([
    HttpProcess.start([BUN, resolve(ROOT, "test/fixtures/upstreams/sdk-v2-http.ts")], { args: [] }),
    compileFixture("test/fixtures/servers/fixture.ts", "proxy-upstream"),
  ]);
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-proxy-"));
  serversFile = join(dir, "claude_desktop_config.json");
  writeFileSync(
    serversFile,
    JSON.stringify({
      mcpServers: {
        v1: { command: BUN, args: [V1], env: { CONFIGURED: "${M18_CONFIGURED}" } },
        v2: { url: v2.url, headers: { Authorization: "Bearer ${M18_UPSTREAM_TOKEN}" } },
        fx: { command: fixtureBin, include: ["echo", "progress", "search", "sleep"] },
        mute: { command: BUN, args: [RAW, "mute"], startTimeoutMs: 400 },
        off: { command: "/nonexistent", disabled: true },
      },
    }),
  );
}, 60_000);
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});
afterAll(() => v2?.kill());

const env = () => ({
  ...(process.env as Record<string, string>),
  M18_CONFIGURED: "from-config",
  M18_UPSTREAM_TOKEN: "upstream-secret",
  M18_PROXY_SECRET: "never-forwarded",
});

/** Starts `mcpbin proxy …` under the SDK v1 client; the proxy's stderr is collected. */
const v1Client = (args: string[]) => v1Front([BUN, MCPBIN, "proxy", ...args], { env: env(), closers });

const text = (r: Record<string, unknown>) => (r.content as { text: string }[])[0]!.text;

test("SDK v1 client → proxy: names (collisions prefixed, dots mapped), calls to each upstream, progress, cancellation, instructions; the mute upstream left out", async () => {
  const { client, seen, stderr } = await v1Client(["--servers", serversFile]);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  expect(names).toEqual(
    [
      "authorization",
      "echo",
      "env",
      "fx__search",
      "get_user",
      "meta",
      "pid",
      "progress",
      "sleep",
      "steps",
      "v1__search",
      "v2__search",
      "v2_only",
      "wait",
      "weather",
    ].sort(),
  );
  for (const n of names) expect(n).toMatch(NAME);
  // Only the name differs from the upstream's definition.
  const weather = tools.find((t) => t.name === "weather")!;
  expect(weather).toMatchObject({
    title: "Weather",
    description: "Structured weather",
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { "example.com/owner": "v1" },
  });

  expect(text(await client.callTool({ name: "v1__search", arguments: { q: "a" } }))).toBe("v1:a");
  expect(text(await client.callTool({ name: "v2__search", arguments: { q: "b" } }))).toBe("v2:b");
  expect(JSON.parse(text(await client.callTool({ name: "fx__search", arguments: { query: "c" } })))).toMatchObject({
    query: "c",
  });
  expect(text(await client.callTool({ name: "get_user", arguments: { id: 3 } }))).toBe("user 3");
  const w = await client.callTool({ name: "weather", arguments: { city: "Oslo" } });
  expect(w.structuredContent).toEqual({ temperature: 21.5, city: "Oslo" });
  expect((w._meta as Record<string, unknown>)["example.com/source"]).toBe("v1");

  // Progress: a token of the proxy's own goes upstream, and progress comes back with the client's token.
  const steps = await client.callTool({ name: "steps", arguments: {} }, undefined, { onprogress: () => {} });
  expect(text(steps)).toBe("token string");
  expectSteps(progressOnWire(seen));
  const meta = JSON.parse(
    text(await client.callTool({ name: "meta", arguments: {} }, undefined, { onprogress: () => {} })),
  );
  expect(typeof meta.progressToken).toBe("string");

  // Cancellation: the client's notifications/cancelled reaches the upstream under the upstream's own id.
  const ac = new AbortController();
  const waiting = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: ac.signal });
  const id = (await stderr.next(/^\[v1\] waiting in request /)).split(" ").pop();
  ac.abort();
  await waiting.catch(() => {});
  expect(await stderr.next(/^\[v1\] cancelled request /)).toBe(`[v1] cancelled request ${id}`);

  // Upstream instructions merged into ours; the mute upstream reported and left out, no other affected.
  const instructions = client.getInstructions()!;
  expect(instructions).toContain(`## Instructions of the upstream server "v1"\nUse search for the v1 index.`);
  expect(instructions).toContain(`## Instructions of the upstream server "v2"\nThe v2 upstream.`);
  expect(
    stderr.lines.some((l) =>
      l.startsWith('mcpbin: upstream "mute" left out: no answer to the handshake within 400 ms'),
    ),
  ).toBe(true);
  expect(seen.length).toBeGreaterThanOrEqual(9);
});

test("security: the child sees its configured env and not ours; the HTTP upstream its configured header", async () => {
  const { client } = await v1Client(["--servers", serversFile]);
  const childEnv = JSON.parse(text(await client.callTool({ name: "env", arguments: {} })));
  expect(childEnv.CONFIGURED).toBe("from-config");
  expect(childEnv.M18_PROXY_SECRET).toBeUndefined();
  expect(childEnv.M18_UPSTREAM_TOKEN).toBeUndefined();
  expect(text(await client.callTool({ name: "authorization", arguments: {} }))).toBe("Bearer upstream-secret");
});

test("a killed upstream: the next read-only call starts it again and succeeds", async () => {
  const { client, stderr } = await v1Client(["--servers", serversFile]);
  const pid = Number(text(await client.callTool({ name: "pid", arguments: {} })));
  process.kill(pid, "SIGKILL");
  await stderr.next(/^mcpbin: upstream "v1": the server process was ended by SIGKILL; restarting in \d+ ms$/);
  const again = await client.callTool({ name: "pid", arguments: {} });
  expect(again.isError).toBeUndefined();
  expect(Number(text(again))).not.toBe(pid);
  // Killed during a read-only call: the call is replayed once on the new process.
  const ac = new AbortController();
  const waiting = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: ac.signal });
  await stderr.nth(/^\[v1\] waiting in request /, 1);
  process.kill(Number(text(await client.callTool({ name: "pid", arguments: {} }))), "SIGKILL");
  await stderr.nth(/^\[v1\] waiting in request /, 2);
  ac.abort();
  await waiting.catch(() => {});
});

test("SDK v2 client (2026-07-28) → proxy over stdio: legacy upstreams' results arrive as valid 2026 results", async () => {
  const { client, seen } = await v2Front([BUN, MCPBIN, "proxy", "--servers", serversFile], { env: env(), closers });
  const { tools } = await client.listTools();
  expect(tools.length).toBe(15);
  const w = await client.callTool({ name: "weather", arguments: { city: "Rome" } });
  expect(w.structuredContent).toEqual({ temperature: 21.5, city: "Rome" });
  expect(text(await client.callTool({ name: "v2__search", arguments: { q: "m" } }))).toBe("v2:m");
  expect(text(await client.callTool({ name: "echo", arguments: { text: "fx" } }))).toBe("fx");
  expect(seen.filter((s) => s.version === "2026-07-28" && s.method === "tools/call").length).toBe(3);
});

test("proxy --http: stdio upstreams made remote; the inbound Authorization header is never forwarded", async () => {
  const p = await HttpProcess.start([BUN, MCPBIN, "proxy", "--servers", serversFile], { env: env() });
  closers.push(() => p.kill("SIGTERM"));
  const v = validatingFetch();
  const client = new ClientV2({ name: "v2-http", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new HttpV2(new URL(p.url), {
      fetch: v.fetch,
      requestInit: { headers: { Authorization: "Bearer inbound-client-token" } },
    }),
  );
  closers.push(() => client.close());
  expect(text(await client.callTool({ name: "v1__search", arguments: { q: "h" } }))).toBe("v1:h");
  expect(text(await client.callTool({ name: "authorization", arguments: {} }))).toBe("Bearer upstream-secret");
  const seenP: number[] = [];
  await client.callTool({ name: "progress", arguments: {} }, { onprogress: (x) => void seenP.push(x.progress) });
  expect(v.checked.notifications).toBeGreaterThanOrEqual(1);
  expect(seenP.at(-1)).toBe(3);
  expect(v.checked.responses).toBeGreaterThanOrEqual(4);
});

test("proxy --url: a remote server made local over stdio, names unprefixed, --header with ${VAR}", async () => {
  const { client } = await v1Client(["--url", v2.url, "--header", "Authorization: Bearer ${M18_UPSTREAM_TOKEN}"]);
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["search", "v2_only", "authorization"]);
  expect(text(await client.callTool({ name: "search", arguments: { q: "r" } }))).toBe("v2:r");
  expect(text(await client.callTool({ name: "authorization", arguments: {} }))).toBe("Bearer upstream-secret");
  expect(client.getServerVersion()?.name).toBe("mcpbin-proxy");
});

test("proxy --check: per upstream tools, bytes, tokens and name problems; exit 1 with one upstream down", async () => {
  const p = Bun.spawn([BUN, MCPBIN, "proxy", "--servers", serversFile, "--check"], {
    stdout: "pipe",
    stderr: "pipe",
    env: env(),
  });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  expect(code).toBe(1);
  expect(out).toMatch(/^v1: up \(2025-11-25\), 8 of 8 tools, \d+ bytes of definitions, ~\d+ tokens$/m);
  expect(out).toMatch(/^v2: up \(2026-07-28\), 3 of 3 tools/m);
  expect(out).toMatch(/^fx: up \(2026-07-28\), 4 of \d+ tools/m);
  expect(out).toContain("  get.user → get_user (characters outside A-Z a-z 0-9 _ -)");
  expect(out).toContain("  search → v1__search (collides with another server's tool)");
  expect(out).toMatch(/^mute: DOWN: no answer to the handshake within 400 ms$/m);
  expect(out).toContain("total: 15 tools");
});

test("an upstream failure names the server once, a remote one with its URL (never its query); --check says nothing of restarting", async () => {
  // A port nothing listens on: taken, then let go.
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const file = join(mkdtempSync(join(tmpdir(), "mcpbin-proxy-fail-")), "servers.json");
  writeFileSync(file, JSON.stringify({ mcpServers: { broken: { command: "/nonexistent/mcpbin-server" } } }));
  const run = async (args: string[]) => {
    const p = Bun.spawn([BUN, MCPBIN, "proxy", ...args, "--check"], { stdout: "pipe", stderr: "pipe", env: env() });
    const [out, err, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    return { out, err, code };
  };
  const local = await run(["--servers", file]);
  expect(local.code).toBe(1);
  expect(local.out).toMatch(/^broken: DOWN: cannot start "\/nonexistent\/mcpbin-server": ENOENT[^\n]*$/m);
  // Read after the process ended: every line it wrote is here.
  expect(local.err).toContain('mcpbin: upstream "broken" left out: cannot start "/nonexistent/mcpbin-server"');
  expect(local.err).not.toContain("restarting");
  expect(`${local.out}${local.err}`.split("\n").filter((l) => l.split("broken").length > 2)).toEqual([]);
  const url = `http://127.0.0.1:${port}/mcp`;
  const remote = await run(["--url", `${url}?key=hidden`]);
  expect(remote.code).toBe(1);
  // Nothing listens there: the first request could not be sent (unsent, so nothing is retried in its name).
  expect(remote.out).toStartWith(`remote (${url}): DOWN: server/discover: the request could not be sent: `);
  expect(remote.out.split("\n")[0]!.split("remote").length).toBe(2);
  expect(remote.err).not.toContain("restarting");
  expect(`${remote.out}${remote.err}`).not.toContain("hidden");
  // Serving (not --check): the restart line names it once, with its URL.
  const served = Bun.spawn([BUN, MCPBIN, "proxy", "--url", url], {
    stdin: "pipe",
    stdout: "ignore",
    stderr: "pipe",
    env: env(),
  });
  const stderr = stderrLines();
  void pumpLines(served.stderr, stderr);
  try {
    const line = await stderr.next(/restarting in \d+ ms$/);
    expect(line).toStartWith(`mcpbin: upstream "remote" (${url}): server/discover: the request could not be sent: `);
    expect(line.split("remote").length).toBe(2);
  } finally {
    served.kill();
    await served.exited;
  }
});
