// An executable serves the skills its build recorded and embeds no YAML parser for the scan: a skills path that
// differs at run time fails at start with one line saying what to change, instead of reading folders it never embedded.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { mcpbin } from "../cli/run-cli.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";

afterAll(removeProjects);

const SERVER = `import { serve, tool } from "mcpbin";
await serve({ name: "s", version: "1.0.0", tools: [tool({ name: "t", description: "t", run: () => 1 })], skills: [process.env.SKILLS_DIR ?? "./skills"] });
`;
const skill = (name: string) => `---\nname: ${name}\ndescription: Does a thing\n---\n# ${name}\n`;

test("a skills path the build did not record fails the executable's start with one line naming the fix", async () => {
  const dir = writeProject({ "server.ts": SERVER, "skills/a/SKILL.md": skill("a"), "other/b/SKILL.md": skill("b") });
  const built = await mcpbin(["build", "server.ts", "--outfile", "dist/s"], dir);
  expect(built.code).toBe(0);
  const p = Bun.spawn([join(dir, "dist/s")], {
    env: { ...process.env, SKILLS_DIR: join(dir, "other") },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  expect(code).not.toBe(0);
  expect(stderr).toContain("cannot scan a skills folder at run time");
  expect(stderr).toContain("give serve() the skills paths it is built with");
}, 120_000);
