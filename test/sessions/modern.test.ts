// Live sessions at 2026-07-28: the official SDK v2 client pinned to it calls a session's tools (result labelled, an
// elicitation fulfilled through input_required rounds while the call waits in the session), and a subscriptions/listen
// stream is told when a session appears and goes away.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpProcess } from "../helpers/proc.ts";
import { BUN, SERVER, startFixture, tempDir, text, until } from "./harness.ts";

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };

function place() {
  const root = tempDir();
  const project = join(root, "p");
  mkdirSync(project);
  return { dir: join(root, "s"), project };
}

test("SDK v2 at 2026-07-28: a session's tool answers labelled, and its elicitation comes back as input_required rounds", async () => {
  const { dir, project } = place();
  const app = await startFixture("modern", project, dir);
  const transport = new StdioClientTransport({
    command: BUN,
    args: [SERVER],
    cwd: project,
    env: { ...(process.env as Record<string, string>), MCPBIN_SESSION_DIR: dir },
    stderr: "pipe",
  });
  const c = new Client(
    { name: "v2", version: "2.0.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: V } as never } },
  );
  c.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { color: "plum" } }));
  await c.connect(transport);
  try {
    expect(c.getNegotiatedProtocolVersion()).toBe(V);
    await until(async () => (await c.listTools()).tools.some((t) => t.name === "ask_color"), "the session's tools");
    const r = await c.callTool({ name: "wait", arguments: { ms: 1, tag: "modern" } });
    expect(text(r)).toContain("waited modern");
    expect((r._meta as any)["io.mcpbin/session"]).toMatchObject({ id: app.id, name: "modern" });
    const asked = await c.callTool({ name: "ask_color", arguments: {} });
    expect(text(asked)).toContain("colour plum");
    expect(text(asked)).toContain('[ran in session "modern"');
  } finally {
    await c.close();
  }
});

test("2026-07-28: a subscriptions/listen stream is told when a session appears and when it goes away", async () => {
  const { dir, project } = place();
  const p = new McpProcess([BUN, SERVER], { cwd: project, env: { MCPBIN_SESSION_DIR: dir } });
  try {
    p.send({
      jsonrpc: "2.0",
      id: "L1",
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: META },
    });
    await p.waitFor((x) => x.method === "notifications/subscriptions/acknowledged");
    const changes = () => p.messages.filter((x) => x.method === "notifications/tools/list_changed").length;
    const n0 = changes();
    const app = await startFixture("listened", project, dir);
    await until(() => changes() > n0, "list_changed when the session appears");
    const names = (await p.request("tools/list", { _meta: META }, 2, V)).result.tools.map(
      (t: { name: string }) => t.name,
    );
    expect(names).toContain("wait");
    const n1 = changes();
    app.proc.kill("SIGKILL");
    await until(() => changes() > n1, "list_changed when it goes away");
    const last = p.messages.filter((x) => x.method === "notifications/tools/list_changed").at(-1)!;
    expect(last.params).toEqual({ _meta: { "io.modelcontextprotocol/subscriptionId": "L1" } });
  } finally {
    p.kill();
  }
});
