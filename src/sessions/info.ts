/** @module A session's registration file (`<id>.json` beside `<id>.sock`): what it says, signed with the per-user key, and read back only when the signature holds. Runs in Bun and in Node ≥ 20. */
import { lstatSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mac } from "./frame.ts";
import { myUid } from "./dir.ts";

/** What a session says about itself (its registration file, and its opening line on every connection). */
export interface SessionInfo {
  /** Unique in the directory: `<pid>-<random>`; its socket is `<id>.sock`. */
  readonly id: string;
  /** The name the program gave, e.g. `shop-dev`. */
  readonly name: string;
  readonly pid: number;
  /** The program's working directory (real path). */
  readonly cwd: string;
  /** e.g. `bun 1.4.4`, `node v20.20.2`. */
  readonly runtime: string;
  /** ISO time it started. */
  readonly started: string;
  /** Set for a worker session a server started: the server's worker-pool tag (other servers leave it alone). */
  readonly worker?: string;
}

/** The runtime this process is, as `bun 1.4.4` or `node v20.20.2`. */
export function runtimeName(): string {
  const bun = (process.versions as Record<string, string | undefined>).bun;
  return bun ? `bun ${bun}` : `node ${process.version}`;
}

/**
 * Writes a registration file (0600, atomically: a temporary name, then renamed).
 * @param file - `<dir>/<id>.json`.
 * @param info - what to say.
 * @param key - the per-user key it is signed with.
 */
export function writeInfo(file: string, info: SessionInfo, key: Buffer): void {
  const text = JSON.stringify(info);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ info: text, mac: mac(key, "info", "a", 0, text) }), { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * Reads a registration file: a regular file of this user whose signature holds under the key.
 * @param file - `<dir>/<id>.json`.
 * @param key - the per-user key.
 * @returns the info, or a sentence saying why it cannot be trusted (or undefined when it vanished).
 */
export function readInfo(file: string, key: Buffer): { info: SessionInfo } | { problem: string } | undefined {
  let text: string;
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { problem: "not a regular file" };
    if (myUid() !== -1 && st.uid !== myUid()) return { problem: `owned by uid ${st.uid}` };
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { problem: (e as Error).message };
  }
  try {
    const outer = JSON.parse(text) as { info?: unknown; mac?: unknown };
    if (typeof outer.info !== "string" || typeof outer.mac !== "string") return { problem: "not a registration" };
    if (mac(key, "info", "a", 0, outer.info) !== outer.mac)
      return { problem: "its signature does not match this user's key" };
    const info = JSON.parse(outer.info) as SessionInfo;
    if (typeof info.id !== "string" || typeof info.name !== "string" || typeof info.cwd !== "string")
      return { problem: "incomplete" };
    return { info };
  } catch {
    return { problem: "not JSON" };
  }
}
