// Live sessions, the program stays the person's: a signal that ends the program removes its session's files and still ends
// it as before; a program that handles Ctrl-C itself keeps its session; close() ends the session, not the program; a call the
// client cancels is cancelled inside the session; a socket path too long for Unix is refused with what to do.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { session } from "../../src/sessions/session.ts";
import { launchServer, startFixture, tempDir, text, toolNames, until } from "./harness.ts";

function place() {
  const root = tempDir();
  const project = join(root, "p");
  mkdirSync(project);
  return { dir: join(root, "s"), project };
}

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  test(`${sig} ends a program that does not handle it, as before, and its session's files go`, async () => {
    const { dir, project } = place();
    const app = await startFixture("signalled", project, dir);
    expect(existsSync(join(dir, `${app.id}.sock`))).toBe(true);
    app.proc.kill(sig);
    await app.proc.exited;
    expect(app.proc.signalCode).toBe(sig);
    expect(existsSync(join(dir, `${app.id}.sock`))).toBe(false);
    expect(existsSync(join(dir, `${app.id}.json`))).toBe(false);
  });
}

test("a program with two sessions still ends on SIGINT, and both sessions' files go", async () => {
  const { dir, project } = place();
  const app = await startFixture("double", project, dir, { APP_SECOND: "1" });
  await until(() => readdirSync(dir).filter((f) => f.endsWith(".sock")).length === 2, "two sockets");
  app.proc.kill("SIGINT");
  await app.proc.exited;
  expect(app.proc.signalCode).toBe("SIGINT");
  expect(readdirSync(dir).filter((f) => f.endsWith(".sock") || f.endsWith(".json"))).toEqual([]);
});

test("a program that handles Ctrl-C itself keeps running, and so does its session", async () => {
  const { dir, project } = place();
  const app = await startFixture("repl", project, dir, { APP_SIGINT: "1" });
  app.proc.kill("SIGINT");
  await app.out.waitFor("caught SIGINT");
  expect(app.proc.exitCode).toBeNull();
  expect(existsSync(join(dir, `${app.id}.sock`))).toBe(true);
  const c = await launchServer(project, dir);
  await until(async () => (await toolNames(c)).includes("wait"), "the session's tools");
  await c.close();
});

test("close() ends the session (the server sees it go), not the program", async () => {
  const { dir, project } = place();
  const app = await startFixture("closing", project, dir, { APP_CLOSE_ON_SIGUSR2: "1" });
  const c = await launchServer(project, dir);
  await until(async () => (await toolNames(c)).includes("wait"), "the session's tools");
  app.proc.kill("SIGUSR2");
  await app.out.waitFor("closed");
  await until(async () => !(await toolNames(c)).includes("wait"), "the tools to go");
  expect(existsSync(join(dir, `${app.id}.sock`))).toBe(false);
  expect(app.proc.exitCode).toBeNull();
  await c.close();
});

test("a call the client cancels is cancelled inside the session (ctx.signal)", async () => {
  const { dir, project } = place();
  const app = await startFixture("cancelled", project, dir);
  const c = await launchServer(project, dir);
  await until(async () => (await toolNames(c)).includes("wait"), "the session's tools");
  const ac = new AbortController();
  const call = c.client.callTool({ name: "wait", arguments: { ms: 20_000 } }, undefined, { signal: ac.signal });
  await app.out.waitFor("wait 20000 began");
  ac.abort();
  await expect(call).rejects.toThrow();
  const status = await until(async () => {
    const r = JSON.parse(((await c.client.callTool({ name: "status", arguments: {} })).content as any)[0].text);
    return r.lastAborted === true ? r : false;
  }, "the session to see the cancellation");
  expect(status.calls).toBe(1);
  expect(text(await c.client.callTool({ name: "wait", arguments: { ms: 1, tag: "next" } }))).toContain("waited next");
  await c.close();
});

test("a session directory whose socket path would be too long for Unix is refused with what to do", async () => {
  const long = join(tempDir(), "d".repeat(90));
  await expect(session({ name: "long", tools: [], dir: long })).rejects.toThrow(
    "set MCPBIN_SESSION_DIR to a shorter directory",
  );
});
