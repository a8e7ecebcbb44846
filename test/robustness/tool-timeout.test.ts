// tool({ timeoutMs: 0 }): no limit for that tool, even under a server-wide serve({ timeoutMs }).
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { BUN, McpProcess } from "../helpers/proc.ts";
import { removeProjects, writeProject } from "../loader/fixture-project.ts";

afterAll(removeProjects);
setDefaultTimeout(30_000);

const V = "2025-11-25";
const SCRIPT = `import * as v from "valibot";
import { serve, tool } from "mcpbin";
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms)).then(() => "waited " + ms);
const input = v.object({ ms: v.number() });
await serve({
  name: "timeouts", version: "1.0.0", timeoutMs: 200,
  tools: [
    tool({ name: "unlimited", description: "no limit of its own", input, timeoutMs: 0, run: ({ ms }) => wait(ms) }),
    tool({ name: "server_limit", description: "under the server's 200 ms", input, run: ({ ms }) => wait(ms) }),
  ],
});
`;

test("tool({ timeoutMs: 0 }) runs without a limit under a server-wide timeoutMs; other tools keep the server's", async () => {
  const dir = writeProject({ "server.ts": SCRIPT });
  const p = new McpProcess([BUN, join(dir, "server.ts")], { cwd: dir });
  try {
    await p.handshake(V);
    const [free, limited] = await Promise.all([
      p.request("tools/call", { name: "unlimited", arguments: { ms: 600 } }, 2, V),
      p.request("tools/call", { name: "server_limit", arguments: { ms: 600 } }, 3, V),
    ]);
    expect(free.result).toEqual({ content: [{ type: "text", text: "waited 600" }] });
    expect(limited.result.isError).toBe(true);
    expect(limited.result.content[0].text).toContain("timed out after 200 ms");
    p.closeStdin();
    expect(await p.exited).toBe(0);
  } finally {
    p.kill();
  }
});
