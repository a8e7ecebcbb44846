// Secrets on the user's machine: `mcpbin install --env NAME=secret` writes the client's configuration 0600 when it
// holds a secret (never loosening a mode), its backup too, and writes through a symlinked configuration file.
import { afterAll, expect, test } from "bun:test";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { install } from "../../src/cli/install.ts";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});
/** A temporary HOME with Cursor's user configuration holding `text` at `mode`. */
function home(mode?: number, text = '{ "mcpServers": {} }\n'): { home: string; file: string } {
  const h = mkdtempSync(join(tmpdir(), "mcpbin-secrets-"));
  homes.push(h);
  const file = join(h, ".cursor", "mcp.json");
  mkdirSync(join(h, ".cursor"));
  if (mode !== undefined) {
    writeFileSync(file, text);
    Bun.spawnSync(["chmod", mode.toString(8), file]);
  }
  return { home: h, file };
}
const put = (h: string, env: Record<string, string>, name = "srv") =>
  install({
    client: "cursor",
    name,
    command: "/opt/srv/bin",
    args: [],
    env,
    environment: { HOME: h },
    platform: "linux",
  });
const mode = (f: string) => statSync(f).mode & 0o777;

test("secrets in the client's configuration: --env makes a world-readable file 0600, its backup too", () => {
  const { home: h, file } = home(0o644);
  const r = put(h, { API_KEY: "s3cret" });
  expect(readFileSync(file, "utf8")).toContain("s3cret");
  expect(mode(file)).toBe(0o600);
  expect(mode(r.backup!)).toBe(0o600);
});

test("secrets in the client's configuration: a mode is never loosened, and a file without secrets keeps its own", () => {
  const tight = home(0o400 | 0o200);
  put(tight.home, { API_KEY: "x" });
  expect(mode(tight.file)).toBe(0o600);
  const plain = home(0o644);
  put(plain.home, {});
  expect(mode(plain.file)).toBe(0o644);
  const group = home(0o640);
  put(group.home, {});
  expect(mode(group.file)).toBe(0o640);
  // Another server's secret already in the file: still a file with a secret.
  const other = home(0o644, JSON.stringify({ mcpServers: { old: { command: "/x", env: { TOKEN: "t" } } } }));
  put(other.home, {});
  expect(mode(other.file)).toBe(0o600);
  const fresh = home();
  put(fresh.home, { API_KEY: "x" });
  expect(mode(fresh.file)).toBe(0o600);
});

test("secrets in the client's configuration: a symlinked configuration file is written through, the link stays", () => {
  const { home: h, file } = home();
  const target = join(h, "dotfiles", "cursor-mcp.json");
  mkdirSync(join(h, "dotfiles"));
  writeFileSync(target, '{ "mcpServers": {} }\n');
  Bun.spawnSync(["chmod", "644", target]);
  symlinkSync("../dotfiles/cursor-mcp.json", file);
  put(h, { API_KEY: "s3cret" });
  expect(lstatSync(file).isSymbolicLink()).toBe(true);
  expect(readlinkSync(file)).toBe("../dotfiles/cursor-mcp.json");
  expect(JSON.parse(readFileSync(target, "utf8")).mcpServers.srv.env).toEqual({ API_KEY: "s3cret" });
  expect(mode(target)).toBe(0o600);
});
