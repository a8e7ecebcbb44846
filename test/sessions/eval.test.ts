// Live sessions, the opt-in evaluate tool: in the program (scope values themselves, console captured, value as JSON, errors and
// timeouts as isError results), in a worker thread a timeout terminates without harming the program, and never over --http
// unless the server says so (sessions.evalOverHttp).
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StreamText } from "../helpers/wait.ts";
import { BUN, launchServer, SERVER, startFixture, tempDir, text, toolNames, until } from "./harness.ts";

function place() {
  const root = tempDir();
  const project = join(root, "p");
  mkdirSync(project);
  return { dir: join(root, "s"), project };
}

test("eval: true runs a snippet in the program with its scope, captures console output and returns the value as JSON", async () => {
  const { dir, project } = place();
  await startFixture("evaluator", project, dir, { APP_EVAL: "1" });
  const c = await launchServer(project, dir);
  await until(async () => (await toolNames(c)).includes("evaluate"), "evaluate offered");
  const tool = (await c.client.listTools()).tools.find((t) => t.name === "evaluate")!;
  expect(tool.description).toContain("In scope: answer, fn.");
  const expr = await c.client.callTool({ name: "evaluate", arguments: { code: "answer + fn()" } });
  expect(expr.structuredContent).toEqual({ value: 43, console: [] });
  const body = await c.client.callTool({
    name: "evaluate",
    arguments: { code: "console.log('a', { b: 1 }); console.error('bad'); return { n: 10n, when: 'now' }" },
  });
  expect(body.structuredContent).toEqual({ value: { n: "10", when: "now" }, console: ["a { b: 1 }", "[error] bad"] });
  expect(text(body)).toContain('{"n":"10","when":"now"}');
  const thrown = await c.client.callTool({
    name: "evaluate",
    arguments: { code: "console.log('before'); throw new Error('nope')" },
  });
  expect(thrown.isError).toBe(true);
  expect(text(thrown)).toContain("Error: nope");
  expect(text(thrown)).toContain("console:\nbefore");
  const hung = await c.client.callTool({
    name: "evaluate",
    arguments: { code: "await new Promise(() => {})", timeoutMs: 200 },
  });
  expect(hung.isError).toBe(true);
  expect(text(hung)).toContain("timed out after 200 ms");
});

test('eval: "worker" runs in a worker thread that a timeout terminates; the program goes on; scope values are copies', async () => {
  const { dir, project } = place();
  const app = await startFixture("sandboxed", project, dir, { APP_EVAL: "worker" });
  const c = await launchServer(project, dir);
  await until(async () => (await toolNames(c)).includes("evaluate"), "evaluate offered");
  const tool = (await c.client.listTools()).tools.find((t) => t.name === "evaluate")!;
  expect(tool.description).toContain("In scope: answer.");
  expect(tool.description).toContain("not available there: fn");
  const ok = await c.client.callTool({
    name: "evaluate",
    arguments: { code: "console.log('in worker'); return answer * 2" },
  });
  expect(ok.structuredContent).toEqual({ value: 84, console: ["in worker"] });
  const t0 = performance.now();
  const spin = await c.client.callTool({ name: "evaluate", arguments: { code: "for (;;) {}", timeoutMs: 300 } });
  expect(performance.now() - t0).toBeLessThan(3000);
  expect(spin.isError).toBe(true);
  expect(text(spin)).toContain("timed out after 300 ms; the worker was terminated");
  // The program was never blocked: it answers at once, and is still running.
  expect(text(await c.client.callTool({ name: "wait", arguments: { ms: 1, tag: "alive" } }))).toContain("waited alive");
  expect(app.proc.exitCode).toBeNull();
});

/** Starts the fixture server over HTTP in `cwd`; its SDK client. */
async function overHttp(cwd: string, dir: string, env: Record<string, string>): Promise<Client> {
  const proc = Bun.spawn([BUN, SERVER, "--http", "127.0.0.1:0"], {
    cwd,
    env: { ...process.env, MCPBIN_SESSION_DIR: dir, ...env },
    stdout: "ignore",
    stderr: "pipe",
  });
  const err = new StreamText(proc.stderr);
  const url = /MCP over HTTP at (\S+)/.exec(await err.waitFor(/MCP over HTTP at \S+\n/, 20_000))![1]!;
  const client = new Client({ name: "http-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    proc.kill();
  };
  return client;
}

test("evaluate is never offered over --http unless the server sets sessions.evalOverHttp", async () => {
  const { dir, project } = place();
  await startFixture("web", project, dir, { APP_EVAL: "1" });
  const plain = await overHttp(project, dir, {});
  const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
  await until(async () => (await names(plain)).includes("wait"), "the session's tools over HTTP");
  expect(await names(plain)).not.toContain("evaluate");
  await expect(plain.callTool({ name: "evaluate", arguments: { code: "1" } })).rejects.toThrow(
    "Unknown tool: evaluate",
  );
  await plain.close();
  const allowed = await overHttp(project, dir, { EVAL_HTTP: "1" });
  await until(async () => (await names(allowed)).includes("evaluate"), "evaluate over HTTP when allowed");
  expect((await allowed.callTool({ name: "evaluate", arguments: { code: "answer" } })).structuredContent).toEqual({
    value: 42,
    console: [],
  });
  await allowed.close();
});
