// The skills extension served: skills/list, skills/get, resources/directory/read and resources/read of skill files,
// through the real pipeline (connect(server)) in both eras; the entries checked as a host must check them.
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { connect, createServer } from "../../src/index.ts";
import { skills } from "../../src/skills/skill-set.ts";

const DIR = resolve(import.meta.dir, "../fixtures/skills");
const sha = (s: string) => `sha256:${createHash("sha256").update(Buffer.from(s, "utf8")).digest("hex")}`;

for (const era of ["legacy", "modern"] as const) {
  test(`${era}: the extension is declared; every entry is complete, digests and sizes match the bytes read`, async () => {
    const server = createServer({ name: "docs", version: "1.0.0", tools: [], skills: [DIR] });
    const c = await connect(server, { era } as never);
    try {
      // capabilities.extensions is a 2026-07-28 field: a legacy session gets it when its client declared extensions.
      if (era === "modern")
        expect((c.serverCapabilities.extensions as any)["io.modelcontextprotocol/skills"]).toEqual({
          directoryRead: true,
        });
      else expect(c.serverCapabilities.extensions).toBeUndefined();
      const list = await c.request("skills/list", {});
      const entries = list.skills as any[];
      expect(entries.map((e) => e.uri)).toEqual([
        "skill://acme/billing/refunds/SKILL.md",
        "skill://git-workflow/SKILL.md",
        "skill://pdf-processing/SKILL.md",
      ]);
      if (era === "modern") expect(list).toMatchObject({ ttlMs: expect.any(Number), cacheScope: "public" });
      for (const e of entries) {
        expect(e.uri.split("/").at(-2)).toBe(e.frontmatter.name);
        expect(e.resources[0].uri).toBe(e.uri);
        for (const r of e.resources) {
          const read = await c.readResource(r.uri);
          const text = (read.contents as any[])[0].text as string;
          expect(sha(text)).toBe(r.digest);
          expect(Buffer.byteLength(text)).toBe(r.size);
        }
      }
      const pdf = entries.find((e) => e.frontmatter.name === "pdf-processing");
      expect(pdf.frontmatter).toEqual({
        name: "pdf-processing",
        description: "Extract, fill, and assemble PDF documents",
        metadata: { version: "2.1.0" },
      });
      expect(pdf.resources.map((r: any) => r.uri)).toContain("skill://pdf-processing/templates/regional/eu-invoice.md");

      const got = await c.request("skills/get", { uri: "skill://git-workflow/SKILL.md" });
      expect((got.skill as any).frontmatter.license).toBe("Apache-2.0");
      expect(got.nextCursor).toBeUndefined();
      await expect(c.request("skills/get", { uri: "skill://nope/SKILL.md" })).rejects.toMatchObject({
        rpc: { code: -32602 },
      });

      const dir = await c.request("resources/directory/read", { uri: "skill://pdf-processing/templates" });
      expect(dir.resources).toEqual([
        expect.objectContaining({ uri: "skill://pdf-processing/templates/invoice.md", name: "invoice.md" }),
        { uri: "skill://pdf-processing/templates/regional", name: "regional", mimeType: "inode/directory" },
      ]);
      await expect(
        c.request("resources/directory/read", { uri: "skill://pdf-processing/SKILL.md" }),
      ).rejects.toMatchObject({ rpc: { code: -32602 } });

      const listed = await c.listResources();
      const manifest = listed.find((r: any) => r.uri === "skill://git-workflow/SKILL.md") as any;
      expect(manifest).toMatchObject({
        name: "git-workflow",
        description: "Follow this team's Git conventions for branching and commits",
        mimeType: "text/markdown",
      });
    } finally {
      await c.close();
    }
  });
}

test("skills/list pages never split an entry, and a server without skills has no such method", async () => {
  const server = createServer({ name: "docs", version: "1.0.0", tools: [], skills: [DIR], pageSize: 1 });
  const c = await connect(server);
  try {
    const seen: string[] = [];
    let cursor: unknown;
    do {
      const page = await c.request("skills/list", cursor ? { cursor } : {});
      expect((page.skills as any[]).length).toBe(1);
      seen.push(...(page.skills as any[]).map((e) => e.uri));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.length).toBe(3);
  } finally {
    await c.close();
  }
  const plain = await connect(createServer({ name: "p", version: "1.0.0", tools: [] }));
  try {
    await expect(plain.request("skills/list", {})).rejects.toMatchObject({ rpc: { code: -32601 } });
  } finally {
    await plain.close();
  }
});

test("skills() sets merge; two skills at one URI fail with a line naming it", () => {
  const a = skills(resolve(DIR, "git-workflow"));
  expect(a.entries.map((e) => e.uri)).toEqual(["skill://git-workflow/SKILL.md"]);
  expect(() => skills(DIR, a)).toThrow(/skill:\/\/git-workflow\/SKILL.md is served twice/);
});
