// Live sessions end to end, docs/sessions.md's examples: a Bun.serve app and a Node (the machine's `node`, ≥ 20) HTTP app run as
// real processes calling session(); the compiled examples/sessions/server.ts, launched by absolute path by the official SDK v1
// client in each app's folder, finds it by working directory, lists and calls its tools, and sees the result labelled.
import { beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileFixture } from "../helpers/proc.ts";
import { BUN, launch, ROOT, startApp, tempDir, text, toolNames, until, type App } from "./harness.ts";

let bin: string;
let dir: string;
let bunApp: App;
let nodeApp: App;
let bunFolder: string;
let nodeFolder: string;

/** The port an app printed (`listening on http://localhost:<port>/` or `port <port>`). */
function portOf(app: App): number {
  return Number(/(?:localhost:|port )(\d+)/.exec(app.out.text)![1]);
}

beforeAll(async () => {
  // The Node build of mcpbin/session (package.json "exports" → dist/session.mjs), as `npm pack` makes it.
  const build = Bun.spawn([BUN, "run", "build:session"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if ((await build.exited) !== 0) throw new Error(`build:session failed: ${await new Response(build.stderr).text()}`);
  bin = await compileFixture("examples/sessions/server.ts", "sessions-shop");
  const root = tempDir();
  dir = join(root, "s");
  bunFolder = join(root, "shop");
  nodeFolder = join(root, "api");
  mkdirSync(bunFolder);
  mkdirSync(nodeFolder);
  [bunApp, nodeApp] = await Promise.all([
    startApp([BUN, resolve(ROOT, "examples/sessions/bun-app.ts")], bunFolder, { MCPBIN_SESSION_DIR: dir }),
    startApp(["node", resolve(ROOT, "examples/sessions/node-app.mjs")], nodeFolder, { MCPBIN_SESSION_DIR: dir }),
  ]);
}, 120_000);

test("the machine's node is 20 or newer (the Node app runs on it)", async () => {
  const v = Bun.spawnSync(["node", "--version"]).stdout.toString().trim();
  expect(Number(/^v(\d+)/.exec(v)![1])).toBeGreaterThanOrEqual(20);
  expect(nodeApp.out.text).toContain("node-api listening on port");
});

test("the compiled server in the Bun app's folder finds it, lists and calls its tools, and labels each result", async () => {
  const c = await launch(bin, [], bunFolder, { MCPBIN_SESSION_DIR: dir });
  await until(async () => (await toolNames(c)).includes("inspect_order"), "shop-dev's tools");
  expect(await toolNames(c)).toEqual([
    "shop_version",
    "list_sessions",
    "select_session",
    "recent_requests",
    "inspect_order",
    "evaluate",
  ]);
  const order = await c.client.callTool({ name: "inspect_order", arguments: { id: 1 } });
  expect(JSON.parse((order.content as any)[0].text)).toEqual({ id: 1, customer: "ada", total: 42.5, status: "paid" });
  expect(text(order)).toContain(`[ran in session "shop-dev", pid ${bunApp.proc.pid}, bun `);
  expect((order._meta as any)["io.mcpbin/session"]).toMatchObject({
    name: "shop-dev",
    pid: bunApp.proc.pid,
    cwd: bunFolder,
  });
  // The tool sees the program's live state: a request the app served just now.
  await fetch(`http://127.0.0.1:${portOf(bunApp)}/orders/2`);
  const seen = await c.client.callTool({ name: "recent_requests", arguments: { limit: 1 } });
  expect(JSON.parse((seen.content as any)[0].text)).toEqual({
    requests: [{ method: "GET", path: "/orders/2", status: 200 }],
  });
  // Its opt-in evaluate (eval: true, scope: { orders }) over stdio.
  const ev = await c.client.callTool({
    name: "evaluate",
    arguments: { code: "console.log('n', orders.size); return [...orders.values()].map((o) => o.customer)" },
  });
  expect(ev.structuredContent).toEqual({ value: ["ada", "grace"], console: ["n 2"] });
  const list = await c.client.callTool({ name: "list_sessions", arguments: {} });
  expect((list.structuredContent as any).why).toBe("its working directory is this server's");
  await c.close();
  expect(bunApp.proc.exitCode).toBeNull();
});

test("the compiled server in the Node app's folder finds it and calls its tool, labelled with Node's version", async () => {
  const c = await launch(bin, [], nodeFolder, { MCPBIN_SESSION_DIR: dir });
  await until(async () => (await toolNames(c)).includes("server_stats"), "node-api's tools");
  await fetch(`http://127.0.0.1:${portOf(nodeApp)}/`);
  const r = await c.client.callTool({ name: "server_stats", arguments: {} });
  const stats = JSON.parse((r.content as any)[0].text);
  expect(stats.hits).toBe(1);
  expect(stats.node).toMatch(/^v\d+/);
  expect(text(r)).toContain(`[ran in session "node-api", pid ${nodeApp.proc.pid}, node v`);
  expect((r._meta as any)["io.mcpbin/session"]).toMatchObject({
    name: "node-api",
    cwd: nodeFolder,
    runtime: expect.stringMatching(/^node v/),
  });
  await c.close();
  expect(nodeApp.proc.exitCode).toBeNull();
});

test("in a folder of neither, with two sessions running, the server offers its own tools and says how to choose", async () => {
  const c = await launch(bin, [], ROOT, { MCPBIN_SESSION_DIR: dir });
  const list = await until(async () => {
    const r = await c.client.callTool({ name: "list_sessions", arguments: {} });
    return (r.structuredContent as any).sessions.length === 2 ? r : false;
  }, "both sessions listed");
  expect(text(list)).toContain("2 sessions run, none in this folder: choose one with select_session");
  expect(await toolNames(c)).toEqual(["shop_version", "list_sessions", "select_session"]);
  await c.client.callTool({ name: "select_session", arguments: { session: "node-api" } });
  expect(await toolNames(c)).toContain("server_stats");
  await c.close();
});
