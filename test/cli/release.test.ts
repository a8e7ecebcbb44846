// mcpbin release: an archive and an MCP Bundle per platform (executable bit kept), SHA256SUMS and server.json; the archive writers read back by tar and fflate, and reproducible.
import { afterAll, beforeAll, expect, setDefaultTimeout, setSystemTime, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpProcess } from "../helpers/proc.ts";
import { unzipSync } from "fflate";
import { archiveEpoch, sha256, tarGz, zip } from "../../src/build/archive.ts";
import { mcpbin, oneLineError } from "./run-cli.ts";
import * as v from "valibot";
import { SERVER_JSON } from "../helpers/registry-schema.ts";

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
  const r = await mcpbin([
    "release",
    "--config",
    "examples/project/mcpbin.config.ts",
    "--targets",
    HOST,
    "--outdir",
    join(out, "rel"),
  ]);
  expect(r.code).toBe(0);
  const archive = join(out, "rel", `project-example-1.0.0-${HOST}.tar.gz`);
  const mcpb = join(out, "rel", `project-example-1.0.0-${HOST}.mcpb`);
  expect(r.stdout).toBe(`${archive}\n${join(out, "rel", "SHA256SUMS")}\n${join(out, "rel", "server.json")}\n`);
  const sums = readFileSync(join(out, "rel", "SHA256SUMS"), "utf8");
  expect(sums).toBe(
    `${sha256(readFileSync(archive))}  project-example-1.0.0-${HOST}.tar.gz\n${sha256(readFileSync(mcpb))}  project-example-1.0.0-${HOST}.mcpb\n`,
  );
  // server.json for the MCP Registry: one mcpb package per platform, its SHA-256, the placeholders named on stderr.
  const serverJson = v.parse(SERVER_JSON, JSON.parse(readFileSync(join(out, "rel", "server.json"), "utf8")));
  expect(serverJson.version).toBe("1.0.0");
  expect(serverJson.packages).toEqual([
    {
      registryType: "mcpb",
      identifier: `https://github.com/YOUR-GITHUB-USER/project-example/releases/download/v1.0.0/project-example-1.0.0-${HOST}.mcpb`,
      version: "1.0.0",
      fileSha256: sha256(readFileSync(mcpb)),
      transport: { type: "stdio" },
    },
  ]);
  expect(r.stderr).toContain("before publishing, edit:");
  // The per-platform bundle holds that platform's executable only.
  const files = Object.keys(unzipSync(new Uint8Array(readFileSync(mcpb))));
  expect(files.sort()).toEqual(["manifest.json", `server/${HOST}/project-example`]);
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
  expect(
    oneLineError(
      await mcpbin(["release", "--config", "examples/project/mcpbin.config.ts", "--targets", "linux-x64,plan9-mips"]),
    ),
  ).toBe(
    'mcpbin: release: unknown platform "plan9-mips"; expected some of linux-x64,linux-arm64,darwin-x64,darwin-arm64,windows-x64',
  );
});

test("the tar.gz and zip writers produce archives tar and fflate read back byte for byte, with the mode and the fixed time", () => {
  const data = new TextEncoder().encode("#!/bin/sh\necho hi\n".repeat(100));
  const dir = join(out, "fmt");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.tar.gz"), tarGz([{ name: "pkg/tool", data, mode: 0o755 }]));
  const list = Bun.spawnSync(["tar", "-tzvf", join(dir, "a.tar.gz")], {
    env: { ...process.env, TZ: "UTC" },
  }).stdout.toString();
  expect(list).toMatch(
    /^drwxr-xr-x 0\/0 +0 1980-01-01 00:00 pkg\/\n-rwxr-xr-x 0\/0 +1800 1980-01-01 00:00 pkg\/tool\n$/,
  );
  expect(Bun.spawnSync(["tar", "-xzOf", join(dir, "a.tar.gz"), "pkg/tool"]).stdout.toString()).toBe(
    new TextDecoder().decode(data),
  );
  // The zip, read by fflate (no unzip needed): contents, Unix mode in the central directory, DOS time 1980-01-01 00:00.
  const z = zip([
    { name: "pkg/tool.exe", data, mode: 0o755 },
    { name: "pkg/README", data: new TextEncoder().encode("read me"), mode: 0o644 },
  ]);
  const files = unzipSync(z);
  expect(Object.keys(files)).toEqual(["pkg/README", "pkg/tool.exe"]); // sorted by name
  expect(new TextDecoder().decode(files["pkg/tool.exe"])).toBe(new TextDecoder().decode(data));
  const seen: { name: string; method: number }[] = [];
  unzipSync(z, { filter: (f) => (seen.push({ name: f.name, method: f.compression }), false) });
  expect(seen.map((f) => [f.name, f.method])).toEqual([
    ["pkg/README", 8],
    ["pkg/tool.exe", 8],
  ]);
  const b = Buffer.from(z);
  const cd = b.readUInt32LE(b.length - 22 + 16);
  expect(b.readUInt32LE(cd)).toBe(0x02014b50);
  expect(b.readUInt16LE(cd + 12)).toBe(0); // DOS time 00:00:00
  expect(b.readUInt16LE(cd + 14)).toBe((0 << 9) | (1 << 5) | 1); // DOS date 1980-01-01
  const nameLen = b.readUInt16LE(cd + 28);
  const second = cd + 46 + nameLen + b.readUInt16LE(cd + 30) + b.readUInt16LE(cd + 32);
  expect(b.readUInt32LE(second + 38) >>> 16).toBe(0o100755); // pkg/tool.exe, executable
});

test("release archives are reproducible: written twice, at different times and with entries in another order, the bytes are identical", () => {
  const a = { name: "pkg/a", data: new TextEncoder().encode("a".repeat(5000)), mode: 0o755 };
  const b = { name: "pkg/b/c", data: new TextEncoder().encode("bc"), mode: 0o644 };
  setSystemTime(new Date("2031-05-06T07:08:09Z"));
  const first = [tarGz([a, b]), zip([a, b])];
  setSystemTime(new Date("2033-10-11T12:13:14Z")); // a writer that read the clock would write another time
  const second = [tarGz([b, a]), zip([b, a])];
  setSystemTime();
  expect(sha256(second[0]!)).toBe(sha256(first[0]!));
  expect(sha256(second[1]!)).toBe(sha256(first[1]!));
  // SOURCE_DATE_EPOCH moves the one time they carry.
  expect(archiveEpoch({ SOURCE_DATE_EPOCH: "1700000000" })).toBe(1_700_000_000);
  expect(sha256(tarGz([a], archiveEpoch({ SOURCE_DATE_EPOCH: "1700000000" })))).not.toBe(sha256(tarGz([a])));
});
