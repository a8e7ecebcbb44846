// docs/skills.md's example server, built as written and driven by the official SDK clients (v1 legacy, v2 2026-07-28)
// launched by absolute path: a skill served from the executable alone, a mounted server's tool, a transformed tool.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { buildExample, exampleFiles, removeExamples, writeExample } from "./examples.ts";
import { connect, listSkills, readSkillFile } from "../../src/index.ts";

let bin = "";
afterAll(removeExamples);
beforeAll(async () => {
  const built = await buildExample("skills-guide", ["server.ts", "--outfile", "dist/docs"], "dist/docs");
  bin = built.bin;
  // The executable needs nothing beside it: the skills folder goes away before it runs.
  rmSync(join(built.dir, "skills"), { recursive: true, force: true });
}, 180_000);

const sha = (s: string) => `sha256:${createHash("sha256").update(s, "utf8").digest("hex")}`;
const anyResult = z.object({}).passthrough();

test("SDK v1 (legacy): the transformed tool, the mounted tool, and the skill read and verified", async () => {
  const client = new ClientV1({ name: "docs-test", version: "1.0.0" });
  await client.connect(new StdioV1({ command: bin, args: [] }));
  try {
    // A legacy client that declares no extensions gets no capabilities.extensions (a 2026-07-28 field); skills/list answers anyway.
    expect((client.getServerCapabilities() as any).extensions).toBeUndefined();
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(["billing__invoice_total", "find_release_notes"]);
    const find = tools.find((t) => t.name === "find_release_notes")!;
    expect(Object.keys((find.inputSchema as any).properties).sort()).toEqual(["limit", "topic"]);
    const r = await client.callTool({ name: "find_release_notes", arguments: { topic: "mounting" } });
    expect((r.content as any)[0].text).toBe('3 entries about "mounting" (en)');
    const total = await client.callTool({ name: "billing__invoice_total", arguments: { id: "inv-7" } });
    expect(JSON.parse((total.content as any)[0].text)).toEqual({ id: "inv-7", cents: 5000 });

    const list = (await client.request({ method: "skills/list" as never, params: {} }, anyResult)) as any;
    expect(list.skills).toHaveLength(1);
    const entry = list.skills[0];
    expect(entry.uri).toBe("skill://release-notes/SKILL.md");
    expect(entry.frontmatter).toEqual({
      name: "release-notes",
      description: "Write release notes in this project's style from a list of merged changes",
      license: "MIT",
    });
    for (const f of entry.resources) {
      const read = await client.readResource({ uri: f.uri });
      const text = (read.contents[0] as any).text as string;
      expect(sha(text)).toBe(f.digest);
      expect(Buffer.byteLength(text)).toBe(f.size);
    }
    const dir = (await client.request(
      { method: "resources/directory/read" as never, params: { uri: "skill://release-notes" } },
      anyResult,
    )) as any;
    expect(dir.resources.map((x: any) => x.uri)).toEqual([
      "skill://release-notes/SKILL.md",
      "skill://release-notes/templates",
    ]);
  } finally {
    await client.close();
  }
});

test("SDK v2 (2026-07-28): the same tools, and a skill file read from the executable", async () => {
  const client = new ClientV2({ name: "docs-test", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StdioV2({ command: bin, args: [] }));
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(["billing__invoice_total", "find_release_notes"]);
    const r = await client.callTool({ name: "find_release_notes", arguments: { topic: "skills", limit: 1 } });
    expect((r.content as any)[0].text).toBe('1 entries about "skills" (en)');
    const read = await client.readResource({ uri: "skill://release-notes/templates/entry.md" });
    expect((read.contents[0] as any).text).toContain("<area>");
  } finally {
    await client.close();
  }
});

test("mcpbin's own client: listSkills reads no file, readSkillFile verifies the SKILL.md it reads", async () => {
  const client = await connect({ command: bin });
  try {
    const [entry] = await listSkills(client);
    const { text } = await readSkillFile(client, entry!);
    expect(text).toStartWith("---\nname: release-notes\n");
    await expect(
      readSkillFile(client, { ...entry!, resources: entry!.resources.map((r) => ({ ...r, size: r.size + 1 })) }),
    ).rejects.toThrow(/bytes, its entry says/);
    await expect(readSkillFile(client, entry!, "skill://release-notes/unlisted.md")).rejects.toThrow(
      /not a file of skill/,
    );
  } finally {
    await client.close();
  }
});

test("the guide's client script, pointed at the executable, lists the skill and prints its verified SKILL.md's name", async () => {
  const script = exampleFiles("skills-client")["client.ts"]!;
  expect(script).toContain('"/abs/path/to/dist/docs"');
  const dir = writeExample("skills-client", { "client.ts": script.replace("/abs/path/to/dist/docs", bin) });
  const p = Bun.spawn([process.execPath, join(dir, "client.ts")], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [code, out] = await Promise.all([p.exited, new Response(p.stdout).text()]);
  expect({ code, out }).toEqual({ code: 0, out: "name: release-notes\n" });
});
