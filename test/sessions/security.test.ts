// Live sessions, only the same user: the directory 0700 and refused when a symlink or another uid's, the key 0600, a second Unix
// user (made here with useradd) that can neither connect, read the key, plant a session, nor forge a message, and a message with
// a wrong MAC dropped and logged while the session goes on.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { FramedPeer } from "../../src/sessions/frame.ts";
import { openSessionDir, SessionDirError } from "../../src/sessions/dir.ts";
import { launchServer, startFixture, tempDir, text, until, type App } from "./harness.ts";

const root = process.getuid?.() === 0;
const user = `mcpbin-t${randomBytes(3).toString("hex")}`;
let uid = -1;
let dir: string;
let project: string;
let app: App;

beforeAll(async () => {
  const base = tempDir();
  dir = join(base, "s");
  project = join(base, "p");
  mkdirSync(project);
  app = await startFixture("guarded", project, dir);
  if (!root) return;
  const made = Bun.spawnSync(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", user]);
  if (made.exitCode !== 0) throw new Error(`useradd failed: ${made.stderr}`);
  uid = Number(Bun.spawnSync(["id", "-u", user]).stdout.toString().trim());
}, 60_000);
afterAll(() => {
  if (uid !== -1) Bun.spawnSync(["userdel", user]);
});

/**
 * Runs a Node script as the second user; its stdout parsed as JSON. The script goes in on stdin (and the working
 * directory is `/`), so the second user reads it whatever TMPDIR is: a private TMPDIR (0700, as on macOS or in a
 * sandbox) is no place for another user's script.
 */
function asOtherUser(script: string): Record<string, unknown> {
  const r = Bun.spawnSync(["runuser", "-u", user, "--", "node", "-"], {
    cwd: "/",
    stdin: new TextEncoder().encode(script),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`the attack script failed: ${r.stderr}`);
  return JSON.parse(r.stdout.toString());
}

test.skipIf(!root)("the second user's script runs when TMPDIR is private (0700) (skipped unless root: useradd)", () => {
  const saved = process.env.TMPDIR;
  const private_ = tempDir("mcpbin-private-tmp-");
  chmodSync(private_, 0o700);
  process.env.TMPDIR = private_;
  try {
    expect(asOtherUser(`console.log(JSON.stringify({ uid: process.getuid() }))`)).toEqual({ uid });
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

test("the directory is 0700, the key and every file in it 0600, all this user's", () => {
  expect(lstatSync(dir).mode & 0o777).toBe(0o700);
  expect(statSync(join(dir, "key")).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, `${app.id}.sock`)).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, `${app.id}.json`)).mode & 0o777).toBe(0o600);
});

test("a session directory that is a symbolic link is refused, by session() and by the server", async () => {
  const base = tempDir();
  const real = join(base, "real");
  mkdirSync(real, { mode: 0o700 });
  const link = join(base, "link");
  symlinkSync(real, link);
  expect(() => openSessionDir(link)).toThrow(SessionDirError);
  expect(() => openSessionDir(link)).toThrow("is a symbolic link; refusing it");
  const c = await launchServer(project, link);
  const list = await c.client.callTool({ name: "list_sessions", arguments: {} });
  expect((list.structuredContent as any).problem).toContain("is a symbolic link; refusing it");
  expect(c.stderr()).toContain("is a symbolic link");
  await c.close();
});

test.skipIf(!root)(
  "a second user can neither connect to a session, read the key, nor plant a session (skipped unless root: useradd)",
  () => {
    const r = asOtherUser(`
    const net = require("node:net"), fs = require("node:fs");
    const out = {};
    try { fs.readFileSync(${JSON.stringify(join(dir, "key"))}); out.key = "read"; } catch (e) { out.key = e.code; }
    try { fs.readdirSync(${JSON.stringify(dir)}); out.list = "listed"; } catch (e) { out.list = e.code; }
    try { fs.writeFileSync(${JSON.stringify(join(dir, "evil.json"))}, "{}"); out.plant = "planted"; } catch (e) { out.plant = e.code; }
    const s = net.connect(${JSON.stringify(join(dir, `${app.id}.sock`))});
    s.on("connect", () => { out.connect = "connected"; s.destroy(); console.log(JSON.stringify(out)); });
    s.on("error", (e) => { out.connect = e.code; console.log(JSON.stringify(out)); });
  `);
    expect(r).toEqual({ key: "EACCES", list: "EACCES", plant: "EACCES", connect: "EACCES" });
  },
);

test.skipIf(!root)(
  "a session directory of another user (a forged session in it) is refused by the server",
  async () => {
    const base = tempDir();
    chmodSync(base, 0o1777);
    const theirs = join(base, "theirs");
    const made = asOtherUser(`
    const fs = require("node:fs");
    fs.mkdirSync(${JSON.stringify(theirs)}, { mode: 0o700 });
    fs.writeFileSync(${JSON.stringify(join(theirs, "key"))}, Buffer.alloc(32, 7), { mode: 0o600 });
    console.log(JSON.stringify({ made: true }));
  `);
    expect(made).toEqual({ made: true });
    expect(lstatSync(theirs).uid).toBe(uid);
    const c = await launchServer(project, theirs);
    const list = await c.client.callTool({ name: "list_sessions", arguments: {} });
    expect((list.structuredContent as any).problem).toContain(`belongs to uid ${uid}, not to you`);
    expect((list.structuredContent as any).sessions).toEqual([]);
    await c.close();
  },
);

test.skipIf(!root)(
  "a second user who reaches the socket anyway cannot forge a message: every line is dropped and logged",
  async () => {
    // Open a hole on purpose (as a mistaken chmod would): the MAC is the second wall.
    const base = join(dir, "..");
    chmodSync(base, 0o711);
    chmodSync(dir, 0o711);
    chmodSync(join(dir, `${app.id}.sock`), 0o666);
    const from = app.err.text.length;
    try {
      const r = asOtherUser(`
      const net = require("node:net"), crypto = require("node:crypto");
      const key = crypto.randomBytes(32);
      const line = (label, seq, text) => crypto.createHmac("sha256", key).update(label + "\\nd\\n" + seq + "\\n").update(text).digest("base64url") + " " + text + "\\n";
      const s = net.connect(${JSON.stringify(join(dir, `${app.id}.sock`))});
      let got = "";
      s.on("data", (b) => (got += b));
      s.on("connect", () => {
        s.write(line("hello", 0, JSON.stringify({ n: crypto.randomBytes(16).toString("base64url") })));
        s.write(line("x", 0, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: { ms: 1 } } })));
        setTimeout(() => { console.log(JSON.stringify({ connected: true, answered: got.length > 0 })); s.destroy(); }, 500);
      });
      s.on("error", (e) => console.log(JSON.stringify({ connected: e.code })));
    `);
      expect(r).toEqual({ connected: true, answered: false });
      await app.err.waitFor("dropped an opening line without a valid MAC", 5_000, from);
    } finally {
      chmodSync(join(dir, `${app.id}.sock`), 0o600);
      chmodSync(dir, 0o700);
      chmodSync(base, 0o700);
    }
  },
);

test("a message with a wrong MAC is dropped and logged; the connection and the session go on", async () => {
  const key = readFileSync(join(dir, "key"));
  const socket = connect(join(dir, `${app.id}.sock`));
  const lines: string[] = [];
  const opened = Promise.withResolvers<Record<string, unknown>>();
  const peer = new FramedPeer(socket, key, "dial", {
    open: (h) => opened.resolve(h),
    line: (t) => void lines.push(t),
    closed: () => {},
    dropped: () => {},
  });
  const hello = await opened.promise;
  expect(hello).toMatchObject({ id: app.id, name: "guarded" });
  const from = app.err.text.length;
  // A line whose MAC is wrong (one character changed) in the middle of the conversation.
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 9,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
  });
  socket.write(`${"A".repeat(43)} ${body}\n`);
  await app.err.waitFor("dropped message 0 without a valid MAC", 5_000, from);
  // The next line with a valid MAC is taken (the dropped one did not count).
  peer.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    }),
  );
  await until(() => lines.length > 0, "the answer to the valid line");
  expect(JSON.parse(lines[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: "guarded" } } });
  expect(lines.some((l) => JSON.parse(l).id === 9)).toBe(false);
  peer.close();
  expect(app.proc.exitCode).toBeNull();
});

test("a registration signed with another key is ignored and logged by the server", async () => {
  const base = tempDir();
  const d = join(base, "s");
  const p = join(base, "p");
  mkdirSync(p);
  const real = await startFixture("real", p, d);
  writeFileSync(
    join(d, "9-deadbeef.json"),
    JSON.stringify({ info: JSON.stringify({ id: "9-deadbeef", name: "fake", pid: 9, cwd: p }), mac: "x" }),
    { mode: 0o600 },
  );
  const c = await launchServer(p, d);
  await until(
    () => c.stderr().includes("ignored 9-deadbeef.json: its signature does not match this user's key"),
    "the forged registration logged",
  );
  const list = await until(async () => {
    const r = await c.client.callTool({ name: "list_sessions", arguments: {} });
    return (r.structuredContent as any).sessions.length > 0 ? r : false;
  }, "the real session listed");
  expect((list.structuredContent as any).sessions.map((s: any) => s.name)).toEqual(["real"]);
  expect(text(list)).toContain(`id ${real.id}`);
  await c.close();
});
