/** @module fileStore(): the Store kept as one file per key in a directory, each written to a temporary name and renamed into place, so that state survives a restart. */
import type { Store } from "../shared/store.ts";

/** What one key's file holds. */
interface Record {
  /** The value. */
  v: string;
  /** Epoch ms after which the key is gone; absent: no time to live. */
  e?: number;
}

/**
 * A key's file name: `k-` then the key with every character outside `[A-Za-z0-9_-]` percent-encoded (a dot
 * too), so that no key can name a path outside the directory or collide with a temporary file.
 */
function fileName(key: string): string {
  return (
    "k-" +
    key.replace(/[^A-Za-z0-9_-]/g, (c) =>
      [...new TextEncoder().encode(c)].map((b) => "%" + b.toString(16).padStart(2, "0")).join(""),
    )
  );
}

function keyOf(name: string): string | undefined {
  if (!name.startsWith("k-")) return undefined;
  try {
    return decodeURIComponent(name.slice(2));
  } catch {
    return undefined;
  }
}

/**
 * A {@link Store} in a directory: one file per key, written to a temporary file and renamed into place (a
 * reader sees the old value or the new one, never half of one), and `set` resolves only once the rename is
 * done. State survives the process; expired keys are removed when read. `incr` is atomic within one process
 * only: use the Redis store for several processes. The directory is made (or narrowed to) mode 0700 and every file
 * is written 0600, whatever the umask, so that another local user reads none of it.
 * @param dir - the directory (created if absent).
 * @returns the store.
 */
export function fileStore(dir: string): Store {
  const fs = require("node:fs/promises") as typeof import("node:fs/promises");
  const path = require("node:path") as typeof import("node:path");
  let ready: Promise<unknown> | undefined;
  // The folder 0700 and every file 0600 whatever the umask, as the session directory and token files are: a value
  // (a task's result above all) is this user's alone. A folder that exists already is narrowed to 0700 too.
  const mkdir = () => (ready ??= fs.mkdir(dir, { recursive: true, mode: 0o700 }).then(() => fs.chmod(dir, 0o700)));
  let seq = 0;
  /** Per-key chains, so that one process's writes to a key (incr above all) happen in order. */
  const chains = new Map<string, Promise<unknown>>();
  const serial = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const next = (chains.get(key) ?? Promise.resolve()).then(work, work);
    const tail = next.catch(() => {});
    chains.set(key, tail);
    void tail.then(() => chains.get(key) === tail && chains.delete(key));
    return next;
  };
  const read = async (key: string): Promise<Record | undefined> => {
    let text: string;
    try {
      text = await fs.readFile(path.join(dir, fileName(key)), "utf8");
    } catch {
      return undefined;
    }
    let rec: Record;
    try {
      rec = JSON.parse(text) as Record;
    } catch {
      return undefined;
    }
    if (rec.e !== undefined && rec.e <= Date.now()) {
      await fs.rm(path.join(dir, fileName(key)), { force: true });
      return undefined;
    }
    return rec;
  };
  const write = async (key: string, rec: Record): Promise<void> => {
    await mkdir();
    const tmp = path.join(dir, `.tmp-${process.pid}-${++seq}-${Math.random().toString(36).slice(2)}`);
    await fs.writeFile(tmp, JSON.stringify(rec), { mode: 0o600, flag: "wx" });
    await fs.chmod(tmp, 0o600); // the mode above is narrowed by the umask
    await fs.rename(tmp, path.join(dir, fileName(key)));
  };
  const expiry = (ttlMs: number | undefined) => (ttlMs === undefined ? undefined : Date.now() + Math.max(0, ttlMs));
  return {
    async get(key) {
      return (await read(key))?.v;
    },
    set(key, value, options) {
      return serial(key, () => write(key, { v: value, e: expiry(options?.ttlMs) }));
    },
    delete(key) {
      return serial(key, () => fs.rm(path.join(dir, fileName(key)), { force: true }));
    },
    async keys(prefix) {
      await mkdir();
      const out: string[] = [];
      for (const name of await fs.readdir(dir)) {
        const key = keyOf(name);
        if (key !== undefined && key.startsWith(prefix) && (await read(key))) out.push(key);
      }
      return out;
    },
    incr(key, options) {
      return serial(key, async () => {
        const rec = await read(key);
        const n = Number(rec?.v ?? 0) + 1;
        await write(key, { v: String(n), e: options?.ttlMs === undefined ? rec?.e : expiry(options.ttlMs) });
        return n;
      });
    },
  };
}
