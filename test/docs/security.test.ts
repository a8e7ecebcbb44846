// docs/security.md's example, as written there: a notes server that joins template values under its directory
// with resolveUnder(). Built with `mcpbin build` and driven by the official SDK client: a file inside is read;
// files:////etc/passwd, %2Fetc%2Fpasswd, a dot segment and a symlink out of the directory are -32602, and the
// session goes on.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildExample, removeExamples } from "./examples.ts";

setDefaultTimeout(120_000);
afterAll(removeExamples);

let bin: string;
let dir: string;
beforeAll(async () => {
  ({ dir, bin } = await buildExample("files-under", ["server.ts", "--outfile", "dist/notes"], "dist/notes"));
  mkdirSync(join(dir, "notes", "sub"), { recursive: true });
  writeFileSync(join(dir, "notes", "sub", "a.txt"), "note a");
  writeFileSync(join(dir, "secret.txt"), "hunter2");
  symlinkSync(join(dir, "secret.txt"), join(dir, "notes", "link.txt"));
});

test("docs/security.md: the notes example reads inside its directory and refuses every way out with -32602", async () => {
  const transport = new StdioClientTransport({
    command: bin,
    args: [],
    env: { PATH: process.env.PATH ?? "", NOTES_DIR: join(dir, "notes") },
    stderr: "pipe",
  });
  const client = new Client({ name: "security-doc", version: "1.0.0" });
  await client.connect(transport);
  try {
    expect((await client.readResource({ uri: "notes:///sub/a.txt" })).contents).toEqual([
      { uri: "notes:///sub/a.txt", mimeType: "text/plain", text: "note a" },
    ]);
    for (const uri of [
      "notes:////etc/passwd",
      "notes:///%2Fetc%2Fpasswd",
      "notes:///sub/../../secret.txt",
      "notes:///link.txt",
      "notes:///sub%2F..%2F..%2Fsecret.txt",
    ]) {
      const e = await client.readResource({ uri }).then(
        () => undefined,
        (x: { code?: number; message?: string }) => x,
      );
      expect(e?.code, uri).toBe(-32602);
      expect(e?.message).not.toContain("hunter2");
    }
    expect((await client.readResource({ uri: "notes:///sub/a.txt" })).contents[0]).toMatchObject({ text: "note a" });
  } finally {
    await client.close();
  }
});
