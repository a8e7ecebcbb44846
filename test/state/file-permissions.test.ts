/** @module The file store's folder is 0700 and its files 0600 under any umask, and a second Unix user (made here with useradd) reads none of a task's result. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileStore } from "../../src/state/file.ts";

const root = process.getuid?.() === 0;
const user = `mcpbin-f${randomBytes(3).toString("hex")}`;
let made = false;
// A base every user can traverse (as /tmp is), whatever TMPDIR says: the second user must reach the store's folder
// for its refusal to mean anything.
const base = mkdtempSync("/tmp/mcpbin-filestore-");
chmodSync(base, 0o755);

beforeAll(() => {
  if (!root) return;
  const r = Bun.spawnSync(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", user]);
  if (r.exitCode !== 0) throw new Error(`useradd failed: ${r.stderr}`);
  made = true;
});
afterAll(() => {
  if (made) Bun.spawnSync(["userdel", user]);
  rmSync(base, { recursive: true, force: true });
});

test.each(["022", "002", "000"])("under umask %s the folder is 0700 and every file 0600", async (mask) => {
  const old = process.umask(parseInt(mask, 8));
  try {
    const dir = join(base, `u${mask}`);
    const s = fileStore(dir);
    await s.set("mcpbin:tasks:t1", '{"status":"completed","result":"secret"}');
    await s.incr("mcpbin:tasks:n");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir);
    expect(files.length).toBe(2);
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
  } finally {
    process.umask(old);
  }
});

test("a folder that exists already, made 0755, is narrowed to 0700", async () => {
  const dir = join(base, "existing");
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  await fileStore(dir).set("k", "v");
  expect(statSync(dir).mode & 0o777).toBe(0o700);
});

test.skipIf(!root)(
  "a second user can neither list the folder nor read a task's result (skipped unless root: useradd)",
  async () => {
    const old = process.umask(0o022);
    const dir = join(base, "shared");
    try {
      await fileStore(dir).set("mcpbin:tasks:t2", '{"result":"secret"}');
    } finally {
      process.umask(old);
    }
    const file = join(dir, readdirSync(dir)[0]!);
    const script = join(base, "read.cjs");
    writeFileSync(
      script,
      `const fs = require("node:fs"); const out = {};
     try { out.list = fs.readdirSync(${JSON.stringify(dir)}); } catch (e) { out.list = e.code; }
     try { out.read = fs.readFileSync(${JSON.stringify(file)}, "utf8"); } catch (e) { out.read = e.code; }
     console.log(JSON.stringify(out));`,
      { mode: 0o644 },
    );
    chmodSync(script, 0o644);
    const r = Bun.spawnSync(["runuser", "-u", user, "--", "node", script], {
      cwd: "/",
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(r.stderr.toString()).toBe("");
    expect(JSON.parse(r.stdout.toString())).toEqual({ list: "EACCES", read: "EACCES" });
  },
);
