/** @module Where the client keeps its OAuth registrations and tokens: one 0600 JSON file per issuer and resource in the user's config folder, written atomically. */
import type { StoredEntry, TokenStore } from "../shared/oauth-client.ts";

/**
 * The user's config folder for mcpbin: `MCPBIN_CONFIG_DIR`, else `$XDG_CONFIG_HOME/mcpbin`, else
 * `%APPDATA%\mcpbin` on Windows, else `~/.config/mcpbin`.
 */
export function configDir(env: Record<string, string | undefined> = process.env): string {
  const { join } = require("node:path") as typeof import("node:path");
  const { homedir } = require("node:os") as typeof import("node:os");
  if (env.MCPBIN_CONFIG_DIR) return env.MCPBIN_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, "mcpbin");
  if (process.platform === "win32" && env.APPDATA) return join(env.APPDATA, "mcpbin");
  return join(homedir(), ".config", "mcpbin");
}

/**
 * Entries as files under `<dir>/oauth/`, named by a digest of issuer and resource, mode 0600 in a 0700
 * folder; each write goes to a temporary file that is renamed over the old one, so a crash never leaves a
 * half-written file (and a rotated refresh token is either saved whole or not at all).
 * @param dir - the config folder (default {@link configDir}).
 * @returns the store.
 */
export function fileTokenStore(dir: string = configDir()): TokenStore {
  const fs = require("node:fs") as typeof import("node:fs");
  const { join } = require("node:path") as typeof import("node:path");
  const folder = join(dir, "oauth");
  const fileOf = (issuer: string, resource: string) =>
    join(folder, `${new Bun.CryptoHasher("sha256").update(`${issuer}\n${resource}`).digest("hex").slice(0, 32)}.json`);
  const read = (file: string): StoredEntry | undefined => {
    try {
      const e = JSON.parse(fs.readFileSync(file, "utf8")) as StoredEntry;
      return typeof e?.issuer === "string" && typeof e.resource === "string" ? e : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    async get(issuer, resource) {
      return read(fileOf(issuer, resource));
    },
    async set(entry) {
      fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
      const file = fileOf(entry.issuer, entry.resource);
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      const fd = fs.openSync(tmp, "wx", 0o600);
      try {
        fs.writeSync(fd, JSON.stringify({ ...entry, savedAt: Date.now() }, null, 2));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, file);
    },
    async delete(issuer, resource) {
      fs.rmSync(fileOf(issuer, resource), { force: true });
    },
    async list() {
      let names: string[];
      try {
        names = fs.readdirSync(folder).filter((n) => n.endsWith(".json"));
      } catch {
        return [];
      }
      return names.map((n) => read(join(folder, n))).filter((e): e is StoredEntry => e !== undefined);
    },
  };
}

/** A store in memory only (nothing is written). */
export function memoryTokenStore(): TokenStore {
  const m = new Map<string, StoredEntry>();
  const k = (i: string, r: string) => `${i}\n${r}`;
  return {
    get: async (i, r) => m.get(k(i, r)),
    set: async (e) => void m.set(k(e.issuer, e.resource), e),
    delete: async (i, r) => void m.delete(k(i, r)),
    list: async () => [...m.values()],
  };
}
