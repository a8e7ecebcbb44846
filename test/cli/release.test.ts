// mcpbin release: an archive per platform (executable bit kept) plus SHA256SUMS; the archive writers checked with system tools.
import { afterAll, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpProcess } from "../helpers/proc.ts";
import { sha256, tarGz, zip } from "../../src/build/archive.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";

// Each test spawns the CLI or compiles; the 2-core machine may be busy with other suites.
setDefaultTimeout(60_000);

const HOST = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
let out: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "mcpbin-release-"));
});
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

test(`release --targets ${HOST}: archive, SHA256SUMS, and the unpacked executable serves`, async () => {
  const r = await mcpbin(["release", "--config", "examples/project/mcpbin.config.ts", "--targets", HOST, "--outdir", join(out, "rel")]);
  expect(r.code).toBe(0);
  const archive = join(out, "rel", `project-example-1.0.0-${HOST}.tar.gz`);
  expect(r.stdout).toBe(`${archive}\n${join(out, "rel", "SHA256SUMS")}\n`);
  const sums = readFileSync(join(out, "rel", "SHA256SUMS"), "utf8");
  expect(sums).toBe(`${sha256(readFileSync(archive))}  project-example-1.0.0-${HOST}.tar.gz\n`);
  // System tar unpacks it with the executable bit.
  mkdirSync(join(out, "x"));
  const tar = Bun.spawnSync(["tar", "-xzf", archive, "-C", join(out, "x")]);
  expect(tar.exitCode).toBe(0);
  const bin = join(out, "x", `project-example-1.0.0-${HOST}`, "project-example");
  const p = new McpProcess([bin], { cwd: join(out, "x") });
  try {
    await p.handshake("2025-06-18");
    const call = await p.request("tools/call", { name: "add", arguments: { a: 1, b: 2 } }, 2, "2025-06-18");
    expect(call.result.content).toEqual([{ type: "text", text: "3" }]);
  } finally {
    p.kill();
  }
}, 120_000);

test("release refuses an unknown platform before compiling anything", async () => {
  expect(oneLineError(await mcpbin(["release", "--config", "examples/project/mcpbin.config.ts", "--targets", "linux-x64,plan9-mips"]))).toBe(
    'mcpbin: release: unknown platform "plan9-mips"; expected some of linux-x64,linux-arm64,darwin-x64,darwin-arm64,windows-x64',
  );
});

test("the tar.gz and zip writers produce archives system tools read back byte for byte", () => {
  const data = new TextEncoder().encode("#!/bin/sh\necho hi\n".repeat(100));
  const dir = join(out, "fmt");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.tar.gz"), tarGz([{ name: "pkg/tool", data, mode: 0o755 }]));
  const list = Bun.spawnSync(["tar", "-tzvf", join(dir, "a.tar.gz")]).stdout.toString();
  expect(list).toMatch(/^drwxr-xr-x .* pkg\/\n-rwxr-xr-x .* 1800 .* pkg\/tool\n$/);
  expect(Bun.spawnSync(["tar", "-xzOf", join(dir, "a.tar.gz"), "pkg/tool"]).stdout.toString()).toBe(new TextDecoder().decode(data));
  writeFileSync(join(dir, "a.zip"), zip([{ name: "pkg/tool.exe", data, mode: 0o755 }]));
  const unzip = Bun.which("unzip");
  if (unzip) {
    const t = Bun.spawnSync([unzip, "-t", join(dir, "a.zip")]);
    expect(t.stdout.toString()).toContain("No errors detected");
    expect(Bun.spawnSync([unzip, "-p", join(dir, "a.zip"), "pkg/tool.exe"]).stdout.toString()).toBe(new TextDecoder().decode(data));
  }
  // Independent of unzip: the zip's central directory points at a local header naming the file.
  const z = readFileSync(join(dir, "a.zip"));
  const eocd = z.length - 22;
  expect(z.readUInt32LE(eocd)).toBe(0x06054b50);
  const cd = z.readUInt32LE(eocd + 16);
  expect(z.readUInt32LE(cd)).toBe(0x02014b50);
  expect(z.readUInt32LE(z.readUInt32LE(cd + 42))).toBe(0x04034b50);
  expect(z.subarray(cd + 46, cd + 46 + 12).toString()).toBe("pkg/tool.exe");
});
