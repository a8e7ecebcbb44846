// Live sessions, project style: a mcpbin.config.ts with the `sessions` key and no tools of its own, served by `mcpbin dev`
// and launched by the SDK v1 client in the project folder, offers the tools of the session running there.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { configSource, removeProjects, writeProject } from "../loader/fixture-project.ts";
import { BUN, launch, ROOT, startFixture, tempDir, text, toolNames, until } from "./harness.ts";

afterAll(removeProjects);

test("a config with `sessions` and no tools of its own serves the session in its folder", async () => {
  const project = writeProject({
    "mcpbin.config.ts": configSource({ name: "proj", tools: [], sessions: { queue: 4, timeoutMs: 30_000 } }),
  });
  const dir = join(tempDir(), "s");
  const app = await startFixture("in-project", project, dir);
  const c = await launch(
    BUN,
    [join(ROOT, "bin/mcpbin.ts"), "dev", "--config", join(project, "mcpbin.config.ts")],
    project,
    {
      MCPBIN_SESSION_DIR: dir,
    },
  );
  await until(async () => (await toolNames(c)).includes("wait"), "the session's tools");
  expect((await toolNames(c)).slice(0, 2)).toEqual(["list_sessions", "select_session"]);
  const r = await c.client.callTool({ name: "wait", arguments: { ms: 1, tag: "project" } });
  expect(text(r)).toContain("waited project");
  expect(text(r)).toContain(`[ran in session "in-project", pid ${app.proc.pid}`);
  await c.close();
});
