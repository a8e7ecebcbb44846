// Skills at build time: mcpbin list shows them (their files are not repeated as resources), and a skill folder an
// author got wrong fails `mcpbin build` with one line naming the skill and the rule, before anything is compiled.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mcpbin, oneLineError } from "../cli/run-cli.ts";
import { configSource, removeProjects, toolsModule, writeProject } from "../loader/fixture-project.ts";
import { McpProcess } from "../helpers/proc.ts";

setDefaultTimeout(60_000);
afterAll(removeProjects);

const SERVER = `import { serve, tool } from "mcpbin";\nawait serve({ name: "s", version: "1.0.0", tools: [tool({ name: "t", description: "t", run: () => 1 })], skills: ["./skills"] });\n`;
const skill = (name: string, description = "Does a thing") =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;

test("mcpbin list: each skill once, with its URI, file count and description; its files are not listed as resources", async () => {
  const r = await mcpbin(["list", "test/fixtures/servers/skills.ts", "--json"]);
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.skills).toEqual([
    {
      uri: "skill://acme/billing/refunds/SKILL.md",
      name: "refunds",
      description: "Process customer refund requests per company policy",
      files: 2,
    },
    {
      uri: "skill://git-workflow/SKILL.md",
      name: "git-workflow",
      description: "Follow this team's Git conventions for branching and commits",
      files: 1,
    },
    {
      uri: "skill://pdf-processing/SKILL.md",
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
      files: 4,
    },
  ]);
  expect(out.resources).toBeUndefined();
});

const cases: [string, Record<string, string>, RegExp][] = [
  [
    "a name that breaks the naming rules",
    { "skills/Bad_Name/SKILL.md": skill("Bad_Name") },
    /skill "Bad_Name" \(.*\): name "Bad_Name": a skill name has only lowercase letters, digits and hyphens; rename the folder and the name \(e\.g\. bad-name\)$/,
  ],
  [
    "a name that breaks the rules in a folder that follows them (the folder's name is the fix)",
    { "skills/release-notes/SKILL.md": skill("Release Notes") },
    /skill "release-notes" \(.*\): its name "Release Notes" must equal its folder's name "release-notes": set name: release-notes$/,
  ],
  [
    "frontmatter without a name or a description (both named, the name first)",
    { "skills/notes/SKILL.md": "---\nlicense: MIT\n---\n" },
    /skill "notes" \(.*\): its frontmatter needs "name" \(a string: name: notes, its folder's name\); its frontmatter needs "description" \(a non-empty string\)$/,
  ],
  [
    "a name that is not its folder's",
    { "skills/notes/SKILL.md": skill("release-notes") },
    /skill "notes" \(.*\): its name "release-notes" must equal its folder's name "notes": rename one of them$/,
  ],
  [
    "no frontmatter",
    { "skills/notes/SKILL.md": "# notes\n" },
    /skill "notes" \(.*\): SKILL.md must begin with YAML frontmatter between two --- lines$/,
  ],
  [
    "frontmatter without a description",
    { "skills/notes/SKILL.md": "---\nname: notes\n---\n" },
    /skill "notes" \(.*\): its frontmatter needs "description" \(a non-empty string\)$/,
  ],
  [
    "frontmatter that is not YAML",
    { "skills/notes/SKILL.md": "---\nname: [notes\n---\n" },
    /skill "notes" \(.*\): its frontmatter is not valid YAML/,
  ],
  ["a skills path that is not there", {}, /skills path .*skills is not a folder: fix the path/],
];
for (const [what, files, message] of cases) {
  test(`mcpbin build refuses ${what} in one line, and compiles nothing`, async () => {
    const dir = writeProject({ "server.ts": SERVER, ...files });
    const r = await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir);
    expect(r.code).not.toBe(0);
    expect(oneLineError(r)).toMatch(message);
    expect(existsSync(join(dir, "dist/s"))).toBe(false);
  });
}

test("a skill over the limits builds with a warning (clients may refuse it)", async () => {
  const big = "x".repeat(17 * 1024 * 1024);
  const dir = writeProject({ "server.ts": SERVER, "skills/big/SKILL.md": skill("big"), "skills/big/data.txt": big });
  const r = await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/skill "big" .*: 17825\d+ bytes; a served skill should be at most 16 MiB/);
  expect(r.stderr).toContain("mcpbin: 1 tool, 1 skill");
}, 120_000);

test("project style: mcpbin.config.ts's skills (relative to the config) are embedded; the executable serves them from anywhere", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ name: "proj", version: "1.0.0", tools: ["tools"], skills: ["skills"] }),
    "tools/a.ts": toolsModule("alpha"),
    "skills/notes/SKILL.md": skill("notes", "Take notes"),
  });
  const r = await mcpbin(["build", "--outfile", "dist/proj"], dir);
  expect(r.code).toBe(0);
  rmSync(join(dir, "skills"), { recursive: true });
  const p = new McpProcess([join(dir, "dist/proj")], { cwd: tmpdir() });
  try {
    await p.handshake("2025-06-18");
    const list = await p.request("skills/list", {}, 2, "2025-06-18");
    expect(list.result.skills.map((e: any) => e.uri)).toEqual(["skill://notes/SKILL.md"]);
    const read = await p.request("resources/read", { uri: "skill://notes/SKILL.md" }, 3, "2025-06-18");
    expect(read.result.contents[0].text).toContain("name: notes");
  } finally {
    p.kill();
  }
}, 120_000);

test("mcpbin init --skill NAME scaffolds a skill the project serves; a bad name is refused before anything is written", async () => {
  const dir = writeProject({});
  const r = await mcpbin(["init", "proj", "--skill", "release-notes", "--mcpbin", `file:${process.cwd()}`], dir);
  expect(r.code).toBe(0);
  const config = readFileSync(join(dir, "proj/mcpbin.config.ts"), "utf8");
  expect(config).toContain('  skills: ["skills"],');
  expect(readFileSync(join(dir, "proj/skills/release-notes/SKILL.md"), "utf8")).toStartWith(
    "---\nname: release-notes\ndescription: ",
  );
  const bad = await mcpbin(["init", "other", "--skill", "Release Notes"], dir);
  expect(oneLineError(bad)).toBe(
    'mcpbin: init: --skill "Release Notes": a skill name has only lowercase letters, digits and hyphens (e.g. --skill release-notes)',
  );
  expect(existsSync(join(dir, "other"))).toBe(false);
});
