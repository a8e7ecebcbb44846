// Live sessions, forwarding: real session processes, a real server launched by the SDK v1 client. Queue full, timeout with a
// late reply, a session killed mid-call, two sessions in one folder, select and deselect, a stale socket, asks and progress.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { launchServer, startFixture, tempDir, text, toolNames, until } from "./harness.ts";

/** A session directory and a project folder for one test. */
function place() {
  const root = tempDir();
  const dir = join(root, "s");
  const project = join(root, "project");
  mkdirSync(project);
  return { root, dir, project };
}

test("a session in the server's folder is chosen: its tools beside the server's own, each result labelled with where it ran", async () => {
  const { dir, project } = place();
  const app = await startFixture("alpha", project, dir);
  const c = await launchServer(project, dir);
  const names = await until(
    async () => ((await toolNames(c)).includes("wait") ? toolNames(c) : false),
    "the session's tools",
  );
  expect(names).toEqual(
    expect.arrayContaining(["own_tool", "list_sessions", "select_session", "wait", "status", "steps", "ask_color"]),
  );
  const r = await c.client.callTool({ name: "wait", arguments: { ms: 1, tag: "hi" } });
  expect(text(r)).toContain("waited hi");
  expect(text(r)).toContain(`[ran in session "alpha", pid ${app.proc.pid}`);
  expect((r._meta as any)["io.mcpbin/session"]).toMatchObject({ id: app.id, name: "alpha", pid: app.proc.pid });
  const list = await c.client.callTool({ name: "list_sessions", arguments: {} });
  expect((list.structuredContent as any).chosen).toBe(app.id);
  expect((list.structuredContent as any).why).toBe("its working directory is this server's");
});

test("progress, log messages, an elicitation and a sampling request of a session's tool reach the client as for a local tool", async () => {
  const { dir, project } = place();
  await startFixture("asker", project, dir);
  const c = await launchServer(project, dir);
  await until(async () => (await toolNames(c)).includes("steps"), "the session's tools");
  await c.client.setLoggingLevel("debug");
  const progress: number[] = [];
  const r = await c.client.callTool({ name: "steps", arguments: {} }, undefined, {
    onprogress: (p) => void progress.push(p.progress),
  });
  expect(text(r)).toContain("three steps");
  expect(progress).toEqual([1, 2, 3]);
  await until(() => c.logs.some((l: any) => l.data?.said === "done"), "the session's log line");
  const asked = await c.client.callTool({ name: "ask_color", arguments: {} });
  expect(text(asked)).toContain("colour teal");
  const sampled = await c.client.callTool({ name: "summarize", arguments: {} });
  expect(text(sampled)).toContain("summary: all orders paid (test-model)");
});

test("queue full: a call beyond the queue is an isError result that says what to do, at once", async () => {
  const { dir, project } = place();
  const app = await startFixture("busy", project, dir);
  const c = await launchServer(project, dir, { QUEUE: "1" });
  await until(async () => (await toolNames(c)).includes("wait"), "the session's tools");
  const first = c.client.callTool({ name: "wait", arguments: { ms: 1500, tag: "first" } });
  await app.out.waitFor("wait first began");
  // Calls are dispatched in the order they arrive: the second is queued before the third is looked at.
  const second = c.client.callTool({ name: "wait", arguments: { ms: 1, tag: "second" } });
  const t0 = performance.now();
  const third = await c.client.callTool({ name: "wait", arguments: { ms: 1, tag: "third" } });
  expect(performance.now() - t0).toBeLessThan(1000);
  expect(third.isError).toBe(true);
  expect(text(third)).toContain('session "busy"');
  expect(text(third)).toContain("is busy");
  expect(text(third)).toContain("Wait for them to finish, then call again");
  expect(text(await first)).toContain("waited first");
  expect(text(await second)).toContain("waited second");
});

test("timeout: an isError result that says what to do, the call cancelled inside the session, its late reply dropped", async () => {
  const { dir, project } = place();
  const app = await startFixture("slow", project, dir);
  const c = await launchServer(project, dir, { MCPBIN_SESSION_TIMEOUT_MS: "400" });
  await until(async () => (await toolNames(c)).includes("stubborn"), "the session's tools");
  const r = await c.client.callTool({ name: "stubborn", arguments: { ms: 1500 } });
  expect(app.out.text).not.toContain("stubborn answers"); // answered before the session did
  expect(r.isError).toBe(true);
  expect(text(r)).toContain("did not answer within 0.4 s; the call was cancelled inside the session");
  expect(text(r)).toContain("MCPBIN_SESSION_TIMEOUT_MS");
  // The late answer goes out and is dropped; the session saw its signal aborted; the next call gets its own answer.
  // The status call is sent once the session writes its late answer, so that answer reaches the server first.
  await app.out.waitFor("stubborn answers");
  const status = await c.client.callTool({ name: "status", arguments: {} });
  expect(JSON.parse((status.content as any)[0].text).lastAborted).toBe(true);
  expect(text(await c.client.callTool({ name: "wait", arguments: { ms: 1, tag: "after" } }))).toContain("waited after");
  expect(c.stderr()).not.toContain("late answer");
});

test("a session killed mid-call fails its running and queued calls at once, and its tools go", async () => {
  const { dir, project } = place();
  const app = await startFixture("doomed", project, dir);
  const c = await launchServer(project, dir);
  await until(async () => (await toolNames(c)).includes("wait"), "the session's tools");
  const before = c.listChanged;
  const running = c.client.callTool({ name: "wait", arguments: { ms: 20_000 } });
  const queued = c.client.callTool({ name: "wait", arguments: { ms: 20_000 } });
  await app.out.waitFor("wait 20000 began");
  const t0 = performance.now();
  app.proc.kill("SIGKILL");
  const [a, b] = await Promise.all([running, queued]);
  expect(performance.now() - t0).toBeLessThan(3000);
  for (const r of [a, b]) {
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('session "doomed"');
    expect(text(r)).toContain("went away");
  }
  await until(async () => !(await toolNames(c)).includes("wait"), "the tools to go");
  expect(c.listChanged).toBeGreaterThan(before);
});

test("two sessions in one folder: neither is chosen until one is selected", async () => {
  const { dir, project } = place();
  const one = await startFixture("twin-a", project, dir);
  await startFixture("twin-b", project, dir);
  const c = await launchServer(project, dir);
  const list = await until(async () => {
    const r = await c.client.callTool({ name: "list_sessions", arguments: {} });
    return (r.structuredContent as any).sessions.length === 2 ? r : false;
  }, "both sessions");
  expect((list.structuredContent as any).chosen).toBeNull();
  expect(text(list)).toContain("2 sessions run in this folder: choose one with select_session");
  expect(await toolNames(c)).toEqual(["own_tool", "list_sessions", "select_session"]);
  const sel = await c.client.callTool({ name: "select_session", arguments: { session: one.id } });
  expect(text(sel)).toContain('Selected session "twin-a"');
  expect(await toolNames(c)).toContain("wait");
  expect(text(await c.client.callTool({ name: "wait", arguments: { ms: 1 } }))).toContain('session "twin-a"');
});

test("select and deselect: tools come and go, with a list_changed notification each time", async () => {
  const { root, dir } = place();
  const elsewhere = join(root, "elsewhere");
  const other = join(root, "other");
  mkdirSync(elsewhere);
  mkdirSync(other);
  await startFixture("far-a", elsewhere, dir);
  await startFixture("far-b", other, dir);
  const c = await launchServer(root, dir);
  await until(
    async () =>
      ((await c.client.callTool({ name: "list_sessions", arguments: {} })).structuredContent as any).sessions.length ===
      2,
    "both sessions",
  );
  expect(await toolNames(c)).not.toContain("wait");
  const n0 = c.listChanged;
  const sel = await c.client.callTool({ name: "select_session", arguments: { session: "far-b" } });
  expect(sel.isError).toBeFalsy();
  await until(() => c.listChanged > n0, "list_changed after select");
  expect(await toolNames(c)).toContain("wait");
  expect(text(await c.client.callTool({ name: "wait", arguments: { ms: 1 } }))).toContain('session "far-b"');
  const n1 = c.listChanged;
  await c.client.callTool({ name: "select_session", arguments: {} });
  await until(() => c.listChanged > n1, "list_changed after deselect");
  expect(await toolNames(c)).not.toContain("wait");
  const unknown = await c.client.callTool({ name: "select_session", arguments: { session: "nope" } });
  expect(unknown.isError).toBe(true);
  expect(text(unknown)).toContain('no session has the id or name "nope"');
});

test("a stale socket file (its program was killed) is reclaimed when the dial fails", async () => {
  const { dir, project } = place();
  const app = await startFixture("ghost", project, dir);
  app.proc.kill("SIGKILL");
  await app.proc.exited;
  expect(existsSync(join(dir, `${app.id}.sock`))).toBe(true);
  expect(existsSync(join(dir, `${app.id}.json`))).toBe(true);
  const c = await launchServer(project, dir);
  await until(() => !existsSync(join(dir, `${app.id}.sock`)), "the stale socket to go");
  expect(readdirSync(dir).filter((f) => f.startsWith(app.id))).toEqual([]);
  expect(c.stderr()).toContain(`removed the stale session ${app.id}`);
  const list = await c.client.callTool({ name: "list_sessions", arguments: {} });
  expect((list.structuredContent as any).sessions).toEqual([]);
});

test("a session that appears after the server started is found and announced (list_changed)", async () => {
  const { dir, project } = place();
  const c = await launchServer(project, dir);
  expect(await toolNames(c)).toEqual(["own_tool", "list_sessions", "select_session"]);
  const n0 = c.listChanged;
  const app = await startFixture("late", project, dir);
  await until(async () => (await toolNames(c)).includes("wait"), "the late session's tools");
  expect(c.listChanged).toBeGreaterThan(n0);
  // Closing the agent's side never ends the session: the program keeps running, and the next server reaches it.
  await c.close();
  const next = await launchServer(project, dir);
  await until(async () => (await toolNames(next)).includes("wait"), "the session's tools, from the next server");
  expect(text(await next.client.callTool({ name: "wait", arguments: { ms: 1, tag: "again" } }))).toContain(
    "waited again",
  );
  expect(app.proc.exitCode).toBeNull();
});
