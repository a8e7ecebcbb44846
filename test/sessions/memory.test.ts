// Live sessions, memory: thousands of calls through a session leave the server's and the session's peak RSS flat, and a burst
// far beyond the queue is refused at once instead of being held (the queue is the bound).
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { peakRssMiB } from "../helpers/proc-stats.ts";
import { BUN, SERVER, startFixture, tempDir, text, until } from "./harness.ts";

test("3,000 calls through a session: server and session peak RSS grow by less than 16 MiB; a burst of 300 beyond a queue of 8 is refused at once", async () => {
  const root = tempDir();
  const dir = join(root, "s");
  const project = join(root, "p");
  mkdirSync(project);
  const app = await startFixture("steady", project, dir);
  const transport = new StdioClientTransport({
    command: BUN,
    args: [SERVER],
    cwd: project,
    env: { ...(process.env as Record<string, string>), MCPBIN_SESSION_DIR: dir, QUEUE: "8" },
    stderr: "pipe",
  });
  const c = new Client({ name: "memory", version: "1" });
  await c.connect(transport);
  try {
    await until(async () => (await c.listTools()).tools.some((t) => t.name === "wait"), "the session's tools");
    const call = (tag: string) => c.callTool({ name: "wait", arguments: { ms: 0, tag } });
    for (let i = 0; i < 300; i++) await call(`warm${i}`);
    const server0 = peakRssMiB(transport.pid!);
    const session0 = peakRssMiB(app.proc.pid);
    for (let i = 0; i < 3000; i++) expect(text(await call(`n${i}`))).toContain(`waited n${i}`);
    const server1 = peakRssMiB(transport.pid!);
    const session1 = peakRssMiB(app.proc.pid);
    console.log(
      `server peak RSS ${server0.toFixed(1)} → ${server1.toFixed(1)} MiB; session ${session0.toFixed(1)} → ${session1.toFixed(1)} MiB`,
    );
    expect(server1 - server0).toBeLessThan(16);
    expect(session1 - session0).toBeLessThan(16);
    // One running, 8 waiting, the rest refused without waiting.
    const slow = c.callTool({ name: "wait", arguments: { ms: 500 } });
    await Bun.sleep(50);
    const burst = await Promise.all(Array.from({ length: 300 }, (_, i) => call(`b${i}`)));
    expect(burst.filter((r) => r.isError).length).toBeGreaterThanOrEqual(290);
    expect(burst.filter((r) => r.isError).every((r) => text(r).includes("is busy"))).toBe(true);
    await slow;
  } finally {
    await c.close();
  }
}, 120_000);
