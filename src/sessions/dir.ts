/** @module The per-user session directory and its key: where it is, created 0700, refused when it is a symlink or another user's; the HMAC key kept 0600 beside the sockets. Runs in Bun and in Node ≥ 20. */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readFileSync, writeSync, type Stats } from "node:fs";
import { join } from "node:path";
import { tmpdir, userInfo } from "node:os";
import { createHash, randomBytes } from "node:crypto";

/** The environment variable that names the session directory instead of the default. */
export const DIR_ENV = "MCPBIN_SESSION_DIR";

/** The key's file name inside the directory. */
export const KEY_FILE = "key";

/** Bytes of the per-user HMAC-SHA256 key. */
export const KEY_BYTES = 32;

/** A session directory or key that cannot be used safely; the message says what to change. */
export class SessionDirError extends Error {
  readonly code = "session-dir";
  constructor(message: string) {
    super(message);
    this.name = "SessionDirError";
  }
}

/** Windows: sessions listen on named pipes, and file modes say nothing (the folder's ACL does). */
export const WINDOWS = process.platform === "win32";

/**
 * Where the session `id` of the directory `dir` listens: `<dir>/<id>.sock`, or on Windows the named pipe
 * `\\.\pipe\mcpbin-<hash of dir>-<id>` (the same MAC on every message).
 */
export function endpoint(dir: string, id: string): string {
  return WINDOWS
    ? `\\\\.\\pipe\\mcpbin-${createHash("sha256").update(dir).digest("hex").slice(0, 12)}-${id}`
    : join(dir, `${id}.sock`);
}

/** The user id of this process (-1 where there is none, e.g. Windows). */
export function myUid(): number {
  return typeof process.getuid === "function" ? process.getuid() : -1;
}

/**
 * Where this user's sessions register: `$MCPBIN_SESSION_DIR`, else `$XDG_RUNTIME_DIR/mcpbin`, else
 * `$TMPDIR/mcpbin-<uid>`, else `/tmp/mcpbin-<uid>`.
 * @param env - the environment (default the process's).
 * @returns an absolute path (not created).
 */
export function sessionDirPath(env: Record<string, string | undefined> = process.env): string {
  const given = env[DIR_ENV];
  if (given) return given;
  // Windows: the user's own local application data (its ACL admits only the user), else the temp folder.
  if (WINDOWS)
    return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, "mcpbin") : join(tmpdir(), `mcpbin-${userInfo().username}`);
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, "mcpbin");
  const uid = myUid();
  return join(env.TMPDIR || "/tmp", `mcpbin-${uid}`);
}

/** The directory, checked, and the key of its user. */
export interface SessionDir {
  readonly path: string;
  /** The per-user HMAC-SHA256 key. */
  readonly key: Buffer;
}

/** lstat, or undefined when nothing is there. */
function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/**
 * Checks that `path` is a real directory of this user (not a symlink, not another uid's), tightening its
 * mode to 0700 when it is looser (it is ours, so we may).
 * @throws SessionDirError saying what is wrong and what to do.
 */
function checkDir(path: string, st: Stats): void {
  if (st.isSymbolicLink())
    throw new SessionDirError(
      `session directory ${path} is a symbolic link; refusing it (remove it, or set ${DIR_ENV} to a directory of your own)`,
    );
  if (!st.isDirectory())
    throw new SessionDirError(`session directory ${path} is not a directory; remove it or set ${DIR_ENV}`);
  const uid = myUid();
  if (uid !== -1 && st.uid !== uid)
    throw new SessionDirError(
      `session directory ${path} belongs to uid ${st.uid}, not to you (uid ${uid}); refusing it (remove it, or set ${DIR_ENV} to a directory of your own)`,
    );
  if (!WINDOWS && (st.mode & 0o077) !== 0) chmodSync(path, 0o700);
}

/**
 * Opens (creating when missing) the session directory and its key.
 * @param path - the directory (default {@link sessionDirPath}).
 * @returns the directory and key.
 * @throws SessionDirError when the directory or the key is not safe to use (symlink, other owner, key readable by others or short).
 */
export function openSessionDir(path: string = sessionDirPath()): SessionDir {
  let st = lstatOf(path);
  if (st === undefined) {
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST")
        throw new SessionDirError(`cannot create session directory ${path}: ${(e as Error).message}`);
    }
    st = lstatSync(path);
  }
  checkDir(path, st);
  return { path, key: readOrMakeKey(join(path, KEY_FILE)) };
}

/** The key at `file`, made (random, 0600, exclusively) when there is none. */
function readOrMakeKey(file: string): Buffer {
  for (let attempt = 0; attempt < 2; attempt++) {
    const st = lstatOf(file);
    if (st !== undefined) {
      const uid = myUid();
      if (!st.isFile()) throw new SessionDirError(`session key ${file} is not a regular file; remove it`);
      if (uid !== -1 && st.uid !== uid)
        throw new SessionDirError(`session key ${file} belongs to uid ${st.uid}, not to you; remove it`);
      if (!WINDOWS && (st.mode & 0o077) !== 0)
        throw new SessionDirError(
          `session key ${file} can be read by others (mode ${(st.mode & 0o777).toString(8)}); remove it (a new one is made) so that no other user holds it`,
        );
      const key = readFileSync(file);
      if (key.length >= KEY_BYTES) return key;
      if (attempt === 0) {
        // Another process is writing it this instant (it opened with O_EXCL a moment ago): look once more.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
        continue;
      }
      throw new SessionDirError(
        `session key ${file} is shorter than ${KEY_BYTES} bytes; remove it (a new one is made)`,
      );
    }
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new SessionDirError(`cannot create session key ${file}: ${(e as Error).message}`);
    }
    const key = randomBytes(KEY_BYTES);
    try {
      writeSync(fd, key);
    } finally {
      closeSync(fd);
    }
    return key;
  }
  return readFileSync(file);
}
