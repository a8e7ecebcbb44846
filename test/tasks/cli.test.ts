/** @module `mcpbin call --task`: the tool runs as a task in-process, its status and progress on stderr until the result. */
import { expect, test } from "bun:test";
import { mcpbin } from "../cli/run-cli.ts";
import { ROOT } from "../helpers/proc.ts";

test("call --task shows the task's status and progress, then prints the result as a plain call would", async () => {
  const r = await mcpbin(
    ["call", "work", '{"ms": 300, "steps": 3, "text": "hi"}', "test/fixtures/servers/tasks.ts", "--task"],
    ROOT,
  );
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('{"text":"hi","ms":300}\n');
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("mcpbin: "));
  expect(lines[0]).toMatch(/^mcpbin: task [A-Za-z0-9_-]{22}: working$/);
  expect(lines.filter((l) => l.includes("progress"))).toEqual([
    "mcpbin: progress 1/3: step 1 of 3",
    "mcpbin: progress 2/3: step 2 of 3",
    "mcpbin: progress 3/3: step 3 of 3",
  ]);
  expect(lines.at(-1)).toMatch(/: completed$/);
  const plain = await mcpbin(
    ["call", "work", '{"ms": 1, "text": "hi"}', "test/fixtures/servers/tasks.ts", "--json"],
    ROOT,
  );
  const task = await mcpbin(
    ["call", "work", '{"ms": 1, "text": "hi"}', "test/fixtures/servers/tasks.ts", "--json", "--task"],
    ROOT,
  );
  expect(JSON.parse(task.stdout)).toEqual(JSON.parse(plain.stdout));
});

test("call --task of a tool that forbids tasks says so (exit 1)", async () => {
  const r = await mcpbin(["call", "plain", "{}", "test/fixtures/servers/tasks.ts", "--task"], ROOT);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Tool plain does not run as a task (execution.taskSupport "forbidden")');
});

test("a config file takes the tasks key; a wrong one is refused with what is expected", async () => {
  const { checkConfig } = await import("../../src/config/schema.ts");
  const base = { name: "x", version: "1.0.0", tools: ["tools"] };
  expect(
    checkConfig({ ...base, tasks: { store: "file", dir: "/var/lib/x", ttlMs: 60_000 } }, "mcpbin.config.ts").tasks,
  ).toEqual({ store: "file", dir: "/var/lib/x", ttlMs: 60_000 });
  expect(() => checkConfig({ ...base, tasks: "file" }, "mcpbin.config.ts")).toThrow(
    /"tasks" must be an object \{ store\?/,
  );
});
