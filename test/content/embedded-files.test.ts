// `file:` resources are read at build time into the executable: run from an empty directory it returns them byte for byte; a missing file fails the build naming the resource.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { INITED, initLine, McpProcess, ROOT } from "../helpers/proc.ts";
import { mcpbin, oneLineError } from "../cli/run-cli.ts";

setDefaultTimeout(120_000);

let home: string;
let bin: string;

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "mcpbin-content-build-"));
  const r = await mcpbin(["build", "test/fixtures/servers/content.ts", "--outfile", join(out, "content")]);
  if (r.code !== 0) throw new Error(`build failed: ${r.stderr}`);
  home = mkdtempSync(join(tmpdir(), "mcpbin-empty-"));
  bin = join(home, "content");
  renameSync(join(out, "content"), bin);
  rmSync(out, { recursive: true, force: true });
}, 120_000);
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

test("the executable, alone in an empty directory, returns the embedded files byte for byte", async () => {
  const p = new McpProcess([bin], { cwd: home });
  try {
    p.send(initLine("2025-06-18"));
    await p.response(1);
    p.send(INITED);
    p.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "read_direct", arguments: { which: "guide" } },
    });
    p.send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "read_direct", arguments: { which: "logo" } },
    });
    const guide = JSON.parse((await p.response(2)).result.content[0].text);
    const logo = JSON.parse((await p.response(3)).result.content[0].text);
    const dir = resolve(ROOT, "test/fixtures/servers/content-files");
    expect(guide).toEqual({
      uri: "docs://guide",
      mimeType: "text/markdown",
      text: readFileSync(join(dir, "guide.md"), "utf8"),
    });
    expect(logo.mimeType).toBe("image/png");
    expect(Buffer.from(logo.blob, "base64").equals(readFileSync(join(dir, "logo.png")))).toBe(true);
  } finally {
    p.kill();
  }
});

test("a missing file fails the build with one line naming the resource", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcpbin-missing-"));
  try {
    const entry = join(dir, "server.ts");
    writeFileSync(
      entry,
      `import { resource, serve } from ${JSON.stringify(resolve(ROOT, "src/index.ts"))};\nawait serve({ name: "m", version: "1", tools: [], resources: [resource({ uri: "docs://gone", name: "gone", file: "./gone.md" })] });\n`,
    );
    const r = await mcpbin(["build", entry, "--outfile", join(dir, "out")]);
    expect(oneLineError(r)).toMatch(/resource "docs:\/\/gone": file "\.\/gone\.md" not found \(looked at .*gone\.md\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
