// mcpbin dev --config: a project served from source over stdio; warnings stay on stderr.
import { expect, test, setDefaultTimeout, afterAll } from "bun:test";
import { join } from "node:path";
import { BUN, McpProcess, ROOT } from "../helpers/proc.ts";
import { configSource, toolsModule, writeProject, removeProjects } from "../loader/fixture-project.ts";

afterAll(removeProjects);

// Each test spawns the CLI or compiles; the 2-core machine may be busy with other suites.
setDefaultTimeout(60_000);

test("dev --config serves the project from source and exits 0 on EOF", async () => {
  const p = new McpProcess([BUN, join(ROOT, "bin/mcpbin.ts"), "dev", "--config", "examples/project/mcpbin.config.ts"]);
  try {
    const init = await p.handshake("2025-06-18");
    expect(init.serverInfo).toEqual({ name: "project-example", title: "Text and math tools", version: "1.0.0" });
    const list = await p.request("tools/list", {}, 2, "2025-06-18");
    expect(list.result.tools.map((t: any) => t.name)).toEqual([
      "snake_case",
      "title_case",
      "word_count",
      "add",
      "divide",
    ]);
    const call = await p.request(
      "tools/call",
      { name: "snake_case", arguments: { text: "Dev Mode" } },
      3,
      "2025-06-18",
    );
    expect(call.result.content).toEqual([{ type: "text", text: "dev_mode" }]);
    p.closeStdin();
    expect(await p.exited).toBe(0);
  } finally {
    p.kill();
  }
});

test("dev with the default ./mcpbin.config.ts: loader warnings on stderr, stdout only protocol lines", async () => {
  const dir = writeProject({
    "mcpbin.config.ts": configSource({ tools: ["tools"], exclude: ["missing_*"] }),
    "tools/t.ts": toolsModule("only"),
  });
  const p = new McpProcess([BUN, join(ROOT, "bin/mcpbin.ts"), "dev"], { cwd: dir });
  try {
    await p.handshake("2025-11-25");
    const list = await p.request("tools/list", {}, 2, "2025-11-25");
    expect(list.result.tools.map((t: any) => t.name)).toEqual(["only"]);
    p.closeStdin();
    expect(await p.exited).toBe(0);
    for (const line of p.lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(p.stderr).toContain('mcpbin: warning: exclude pattern "missing_*" matches no tool');
  } finally {
    p.kill();
  }
});
