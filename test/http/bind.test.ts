// Binding mistakes over HTTP: a port in use fails in one line with exit 1 (whoever holds it), and a bind
// other machines can reach, without a token, says loudly that anyone there can call the tools.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { HttpProcess } from "./helpers.ts";

setDefaultTimeout(60_000);
const FIXTURE = "test/fixtures/servers/fixture.ts";
const running: HttpProcess[] = [];
afterAll(() => {
  for (const p of running) p.kill();
});

async function second(port: number, env: Record<string, string> = {}) {
  const p = Bun.spawn([BUN, resolve(ROOT, FIXTURE), "--http", `127.0.0.1:${port}`], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, MCPBIN_HTTP_TOKEN: "", ...env },
  });
  const [code, stdout, stderr] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  return { code, stdout, stderr };
}

test("a port another mcpbin server holds: one line, no stack trace, exit 1; the first keeps serving", async () => {
  const first = await HttpProcess.source(FIXTURE);
  running.push(first);
  const port = Number(new URL(first.url).port);
  const r = await second(port);
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: "" });
  expect(r.stderr).toBe(
    `mcpbin: cannot serve HTTP on 127.0.0.1:${port}: the port is in use (another server listens there); choose another with --http [host:]port\n`,
  );
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  const ping = await fetch(first.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  expect(ping.status).toBeLessThan(500);
});

test("a port something else holds (not mcpbin): the same one line and exit 1", async () => {
  const other = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const r = await second(other.port);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`cannot serve HTTP on 127.0.0.1:${other.port}: the port is in use`);
  } finally {
    other.stop(true);
  }
});

test("--http 0.0.0.0 without a token warns on stderr that anyone who can reach the port can call the tools; with a token it does not", async () => {
  const open = await HttpProcess.source(FIXTURE, { args: ["--http", "0.0.0.0:0"] });
  running.push(open);
  const port = new URL(open.url).port;
  expect(open.stderr).toContain(
    `mcpbin: WARNING: listening on 0.0.0.0 without a token: anyone who can reach port ${port} can call every tool;`,
  );
  const guarded = await HttpProcess.source(FIXTURE, {
    args: ["--http", "0.0.0.0:0"],
    env: { MCPBIN_HTTP_TOKEN: "s3cret" },
  });
  running.push(guarded);
  expect(guarded.stderr).not.toContain("WARNING");
  const local = await HttpProcess.source(FIXTURE);
  running.push(local);
  expect(local.stderr).not.toContain("WARNING");
});
