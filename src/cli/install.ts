/** @module mcpbin install: writes a server into a desktop or editor client's own MCP configuration file (with a backup, no duplicates). */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { CliError } from "./errors.ts";

/** The clients `mcpbin install` knows. */
export const INSTALL_CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode"] as const;
export type InstallClient = (typeof INSTALL_CLIENTS)[number];

/** Where the entry goes: the user's own configuration, or the project's (in the working directory). */
export type InstallScope = "user" | "project";

/** What to install. */
export interface InstallRequest {
  readonly client: InstallClient;
  /** The server's name in the client's configuration. */
  readonly name: string;
  /** Absolute path of the executable. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Default "user"; Claude Desktop has only a user configuration. */
  readonly scope?: InstallScope;
  /** The environment the paths come from (HOME, APPDATA, XDG_CONFIG_HOME); default process.env. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** The platform the paths are for; default process.platform. */
  readonly platform?: NodeJS.Platform;
  /** The project directory for scope "project"; default the working directory. */
  readonly cwd?: string;
}

/** What {@link install} did or, on a dry run, would do. */
export interface InstallOutcome {
  /** The configuration file. */
  readonly file: string;
  /** "added", "updated", or "unchanged" (the same entry was there already: nothing written). */
  readonly change: "added" | "updated" | "unchanged";
  /** The name the entry has (an entry with the same command under another name keeps its name). */
  readonly name: string;
  /** The entry as written. */
  readonly entry: Record<string, unknown>;
  /** The copy of the previous file, when there was one and it changed. */
  readonly backup?: string;
  /** The whole new file text. */
  readonly text: string;
}

/**
 * The configuration file of a client (as documented by each client, 2026):
 * - Claude Desktop: `claude_desktop_config.json` in `~/Library/Application Support/Claude` (macOS),
 *   `%APPDATA%\Claude` (Windows), `$XDG_CONFIG_HOME/Claude` or `~/.config/Claude` (Linux).
 * - Claude Code: `~/.claude.json` (user scope, top-level `mcpServers`), `.mcp.json` (project scope).
 * - Cursor: `~/.cursor/mcp.json` (user), `.cursor/mcp.json` (project).
 * - VS Code: `mcp.json` in the user settings folder (`~/Library/Application Support/Code/User`,
 *   `%APPDATA%\Code\User`, `~/.config/Code/User`), `.vscode/mcp.json` (project).
 * @returns the absolute path and the key that holds the servers (`mcpServers`, or `servers` for VS Code).
 * @throws CliError for Claude Desktop's project scope, or when HOME (APPDATA on Windows) is unset.
 */
export function configFile(
  client: InstallClient,
  scope: InstallScope,
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { file: string; key: "mcpServers" | "servers" } {
  const key = client === "vscode" ? "servers" : "mcpServers";
  if (scope === "project") {
    if (client === "claude-desktop")
      throw new CliError(`install: Claude Desktop has no project configuration; leave out --scope project`, 2);
    const rel = {
      "claude-code": ".mcp.json",
      cursor: join(".cursor", "mcp.json"),
      vscode: join(".vscode", "mcp.json"),
    }[client];
    return { file: resolve(cwd, rel), key };
  }
  const home = env.HOME || env.USERPROFILE || (platform === process.platform ? homedir() : "");
  if (!home) throw new CliError(`install: HOME is not set, so the user configuration cannot be found`);
  const appData = env.APPDATA || join(home, "AppData", "Roaming");
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  const userDir = (app: string): string =>
    platform === "darwin"
      ? join(home, "Library", "Application Support", app)
      : platform === "win32"
        ? join(appData, app)
        : join(xdg, app);
  switch (client) {
    case "claude-desktop":
      return { file: join(userDir("Claude"), "claude_desktop_config.json"), key };
    case "claude-code":
      return { file: join(home, ".claude.json"), key };
    case "cursor":
      return { file: join(home, ".cursor", "mcp.json"), key };
    case "vscode":
      return { file: join(userDir("Code"), "User", "mcp.json"), key };
  }
}

/** The entry for one server in the client's format (VS Code and Claude Code name the transport). */
function entryFor(r: InstallRequest): Record<string, unknown> {
  const e: Record<string, unknown> = {};
  if (r.client === "vscode" || r.client === "claude-code") e.type = "stdio";
  e.command = r.command;
  e.args = [...r.args];
  if (Object.keys(r.env).length > 0) e.env = { ...r.env };
  return e;
}

/**
 * Writes (or, with `dryRun`, computes) the server's entry in the client's configuration file. The file
 * keeps everything else it holds; an entry of the same name is replaced, and an entry of another name
 * with the same command is updated in place (no duplicate on a second run). When the file changes, the
 * previous one is copied to `<file>.bak` first, and the new one is written to a temporary file and
 * renamed over it (over a symlink's target: the link stays). A file holding a secret (an `env` or `headers`
 * value) is written, and its backup kept, without group or other access (0600); no mode is loosened. A JSON-with-comments file (VS Code) is read, but written back as plain JSON (the
 * comments stay in the backup).
 * @param r - what to install and where.
 * @param dryRun - compute only; nothing is written.
 * @returns what changed.
 * @throws CliError when the file exists but is not JSON, or its servers key is not an object.
 */
export function install(r: InstallRequest, dryRun = false): InstallOutcome {
  const { file, key } = configFile(
    r.client,
    r.scope ?? "user",
    r.platform ?? process.platform,
    r.environment ?? process.env,
    r.cwd ?? process.cwd(),
  );
  let before = "";
  let doc: Record<string, unknown> = {};
  if (existsSync(file)) {
    before = readFileSync(file, "utf8");
    if (before.trim() !== "") {
      let parsed: unknown;
      try {
        parsed = Bun.JSONC.parse(before);
      } catch (e) {
        throw new CliError(
          `install: ${file} is not JSON (${(e as Error).message}); fix it or move it away, then run install again`,
        );
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new CliError(`install: ${file} does not hold a JSON object; fix it or move it away`);
      doc = parsed as Record<string, unknown>;
    }
  }
  const servers = (doc[key] ?? {}) as Record<string, unknown>;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers))
    throw new CliError(`install: "${key}" in ${file} is not an object; fix it, then run install again`);
  let name = r.name;
  if (!(name in servers)) {
    const same = Object.entries(servers).find(([, v]) => (v as { command?: unknown } | null)?.command === r.command);
    if (same) name = same[0];
  }
  const entry = entryFor(r);
  const had = servers[name];
  const change = had === undefined ? "added" : JSON.stringify(had) === JSON.stringify(entry) ? "unchanged" : "updated";
  const next = { ...doc, [key]: { ...servers, [name]: entry } };
  const text = change === "unchanged" && before !== "" ? before : JSON.stringify(next, null, 2) + "\n";
  if (dryRun || change === "unchanged") return { file, change, name, entry, text };
  // A symlinked configuration (dotfiles) is written through: the link stays, its target gets the new text.
  const target = linkTarget(file);
  mkdirSync(dirname(target), { recursive: true });
  const mode = fileMode(
    existsSync(target) ? statSync(target).mode & 0o777 : undefined,
    holdsSecret(next[key]) || holdsSecret(servers),
  );
  let backup: string | undefined;
  if (before !== "") {
    backup = `${file}.bak`;
    copyFileSync(target, backup);
    chmodSync(backup, mode); // the old text may hold a secret too
  }
  const tmp = `${target}.mcpbin-${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode); // writeFileSync's mode is narrowed by the umask, and ignored for a file that exists
  renameSync(tmp, target);
  return { file, change, name, entry, backup, text };
}

/** The file a path names once symlinks are followed (a dangling link: the path it points to). */
function linkTarget(file: string): string {
  try {
    if (!lstatSync(file).isSymbolicLink()) return file;
  } catch {
    return file;
  }
  try {
    return realpathSync(file);
  } catch {
    return resolve(dirname(file), readlinkSync(file));
  }
}

/** True when some server entry has `env` or `headers` values: tokens and keys live there. */
function holdsSecret(servers: unknown): boolean {
  if (typeof servers !== "object" || servers === null) return false;
  return Object.values(servers).some((e) => {
    const x = e as { env?: unknown; headers?: unknown } | null;
    return [x?.env, x?.headers].some((m) => typeof m === "object" && m !== null && Object.keys(m).length > 0);
  });
}

/**
 * The mode of the written file: a new file 0600; an existing one keeps its mode, without any group or other
 * bit when the file holds a secret (never loosened: 0644 → 0600, 0400 stays 0400).
 */
function fileMode(existing: number | undefined, secret: boolean): number {
  if (existing === undefined) return 0o600;
  return secret ? existing & 0o700 : existing;
}

/**
 * Parses `--env KEY=VALUE` flags.
 * @throws CliError (exit 2) for one without `=` or with a bad name.
 */
export function parseEnvFlags(flags: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of flags) {
    const at = f.indexOf("=");
    const k = at > 0 ? f.slice(0, at) : "";
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
      throw new CliError(`install: --env ${JSON.stringify(f)} is not KEY=VALUE (KEY: letters, digits, _)`, 2);
    out[k] = f.slice(at + 1);
  }
  return out;
}
