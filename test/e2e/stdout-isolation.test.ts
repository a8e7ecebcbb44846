// B01 and its whole kind: nothing but protocol lines reaches stdout, from source and compiled, with both guards.
import { beforeAll, describe, expect, test } from "bun:test";
import { compileFixture, McpProcess } from "../helpers/proc.ts";

let bin: string;
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/fixture.ts", "fixture");
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load

const NOISE = ["noisy-log", "noisy-info", "noisy-debug", "noisy-warn", "noisy-stdout-write", "noisy-bun-write"];

async function noisySession(p: McpProcess) {
  await p.handshake("2025-06-18");
  const r = await p.request("tools/call", { name: "noisy", arguments: {} }, 2, "2025-06-18");
  expect(r.result.content).toEqual([{ type: "text", text: "done" }]);
  p.closeStdin();
  expect(await p.exited).toBe(0);
  expect(p.lines.length).toBe(2);
  for (const line of p.lines) expect(() => JSON.parse(line)).not.toThrow();
  const stdout = p.lines.join("\n");
  for (const n of NOISE) {
    expect(stdout).not.toContain(n);
    expect(p.stderr).toContain(n);
  }
}

describe("B01 stdout pollution from logging in a tool", () => {
  test("compiled binary, file-descriptor guard", async () => {
    await noisySession(new McpProcess([bin]));
  });
  test("compiled binary, JS patch guard (the fallback where dup2 is unavailable)", async () => {
    await noisySession(new McpProcess([bin], { env: { MCPBIN_STDOUT_GUARD: "patch" } }));
  });
  test("from source", async () => {
    await noisySession(McpProcess.source("test/fixtures/servers/fixture.ts"));
  });
});

test("B01 kind: output at module top level, before serve(), stays off stdout in a compiled executable", async () => {
  const banner = await compileFixture("test/fixtures/servers/banner.ts", "banner");
  const p = new McpProcess([banner]);
  await p.handshake("2025-11-25");
  const r = await p.request("tools/call", { name: "hi", arguments: {} }, 2, "2025-11-25");
  expect(r.result.content).toEqual([{ type: "text", text: "hi" }]);
  p.closeStdin();
  expect(await p.exited).toBe(0);
  expect(p.lines.length).toBe(2);
  for (const n of ["banner-console-log", "banner-stdout-write", "banner-bun-write"]) {
    expect(p.lines.join("\n")).not.toContain(n);
    expect(p.stderr).toContain(n);
  }
});
