// Author mistakes stop the server at start-up: B39 tool names, duplicates, and payload JSON options.
import { expect, test } from "bun:test";
import { resolve } from "node:path";
import { McpProcess, ROOT } from "../helpers/proc.ts";

const SCRIPT = resolve(ROOT, "test/results/bad-names.ts");

/** Runs a script to its end with stdin closed; returns its exit code and everything it wrote. */
async function start(
  env: Record<string, string>,
  script = SCRIPT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn([process.execPath, script], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { code, stdout, stderr };
}

test("B39 tool names clients cannot accept stop the server at start-up with a message naming the tool", async () => {
  const bad = ["get.user", "get user", "a/b", "n".repeat(65), ""];
  const runs = await Promise.all(bad.map((name) => start({ BAD_NAME: name })));
  runs.forEach((r, i) => {
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe(""); // stdout stays protocol-only: nothing at all
    expect(r.stderr).toContain(
      `tool name ${JSON.stringify(bad[i])} is not accepted: use 1-64 characters from A-Z a-z 0-9 _ -`,
    );
  });
  const dup = await start({ DUPLICATE: "1" });
  expect(dup.code).not.toBe(0);
  expect(dup.stdout).toBe("");
  expect(dup.stderr).toContain('two tools are named "echo"');
});

test("B39 names matching ^[A-Za-z0-9_-]{1,64}$ start and are listed", async () => {
  const name = `Get_user-${"x".repeat(55)}`;
  expect(name).toHaveLength(64);
  const p = new McpProcess([process.execPath, SCRIPT], { env: { BAD_NAME: name } });
  try {
    await p.handshake("2025-11-25");
    const r = await p.request("tools/list", {}, 2, "2025-11-25");
    expect(r.result.tools.map((t: { name: string }) => t.name)).toEqual([name]);
  } finally {
    p.kill();
  }
});

test("serve({ json }) with an unknown option stops the server at start-up naming the option", async () => {
  const r = await start({ RESULTS_JSON: '{"nonFinite":"zero"}' }, resolve(ROOT, "test/results/server.ts"));
  expect(r.code).not.toBe(0);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain('json.nonFinite must be one of "null", "string", "error"; got "zero"');
});
