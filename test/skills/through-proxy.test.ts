// Skills of other servers served as ours: through mount() (in process) and through `mcpbin proxy` with two stdio
// upstreams under the official SDK v1 client. URIs follow the proxy's naming rules (the upstream becomes a prefix
// folder, so a skill's name stays its last folder), and every file still verifies against its entry.
import { afterEach, expect, test } from "bun:test";
import { resolve } from "node:path";
import { z } from "zod";
import { connect, createServer, getSkill, listSkills, readSkillFile } from "../../src/index.ts";
import { BUN, ROOT } from "../helpers/proc.ts";
import { serversFile, closedAfterEach, v1Front } from "../client/front.ts";

const DIR = resolve(import.meta.dir, "../fixtures/skills");
const FIXTURE = resolve(ROOT, "test/fixtures/servers/skills.ts");
const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const anyResult = z.object({}).passthrough();

test("mount(): the child's skills under the prefix, listed, got, read and verified; directory reads relayed", async () => {
  const docs = createServer({ name: "docs", version: "1.0.0", tools: [], skills: [DIR] });
  const hub = createServer({ name: "hub", version: "1.0.0", tools: [] });
  await hub.mount(docs, { prefix: "docs" });
  const c = await connect(hub);
  try {
    expect((c.serverCapabilities.extensions as any)["io.modelcontextprotocol/skills"]).toEqual({ directoryRead: true });
    const entries = await listSkills(c);
    expect(entries.map((e) => e.uri).sort()).toEqual([
      "skill://docs/acme/billing/refunds/SKILL.md",
      "skill://docs/git-workflow/SKILL.md",
      "skill://docs/pdf-processing/SKILL.md",
    ]);
    for (const e of entries) for (const r of e.resources) await readSkillFile(c, e, r.uri);
    const got = await getSkill(c, "skill://docs/git-workflow/SKILL.md");
    expect(got.frontmatter.name).toBe("git-workflow");
    const dir = await c.request("resources/directory/read", { uri: "skill://docs/pdf-processing/templates" });
    expect((dir.resources as any[]).map((x) => x.uri)).toEqual([
      "skill://docs/pdf-processing/templates/invoice.md",
      "skill://docs/pdf-processing/templates/regional",
    ]);
    await expect(c.request("skills/get", { uri: "skill://git-workflow/SKILL.md" })).rejects.toMatchObject({
      rpc: { code: -32602 },
    });
  } finally {
    await c.close();
  }
});

const closers = closedAfterEach();

test("mcpbin proxy with two skill servers: both sets listed under their names, files read through and verified", async () => {
  const file = serversFile({
    a: { command: BUN, args: [FIXTURE], env: { SKILLS_SERVER_NAME: "a" } },
    b: { command: BUN, args: [FIXTURE], env: { SKILLS_SERVER_NAME: "b" } },
  });
  const { client } = await v1Front([BUN, MCPBIN, "proxy", "--servers", file], { closers });
  const list = (await client.request({ method: "skills/list" as never, params: {} }, anyResult)) as any;
  const uris = list.skills.map((e: any) => e.uri).sort();
  expect(uris).toContain("skill://a/git-workflow/SKILL.md");
  expect(uris).toContain("skill://b/pdf-processing/SKILL.md");
  expect(uris.length).toBe(6);
  const entry = list.skills.find((e: any) => e.uri === "skill://b/git-workflow/SKILL.md");
  const read = await client.readResource({ uri: entry.resources[0].uri });
  const text = (read.contents[0] as any).text as string;
  expect(`sha256:${new Bun.CryptoHasher("sha256").update(text).digest("hex")}`).toBe(entry.resources[0].digest);
});
