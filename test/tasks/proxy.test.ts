/**
 * @module Tasks through `mcpbin proxy` and upstreamTools(): a call that runs as a task in front is a task of the
 * upstream too (its question relayed, its cancel passed on); an upstream without tasks gets plain calls. A server
 * with `upstreams`, reached in memory or mounted, declares tasks as the tools it lists need them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connect, createServer, upstreamTools, type McpClient } from "../../src/index.ts";
import { BUN, compileFixture, ROOT } from "../helpers/proc.ts";

const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const V1 = resolve(ROOT, "test/fixtures/upstreams/sdk-v1-stdio.ts");
let bin: string;
let servers: string;
const open: McpClient[] = [];

beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/tasks.ts", "tasks-proxy");
  servers = join(mkdtempSync(join(tmpdir(), "mcpbin-tasks-proxy-")), "servers.json");
  writeFileSync(servers, JSON.stringify({ mcpServers: { jobs: { command: bin }, v1: { command: BUN, args: [V1] } } }));
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => {});
});

const answer = async (method: string) => (
  expect(method).toBe("elicitation/create"),
  { action: "accept", content: { ok: true } }
);

async function drive(c: McpClient, era: string) {
  expect(c.tasks.supported).toBe(true);
  const made = await c.tasks.call("work", { ms: 150, steps: 3, text: `via ${era}` });
  if (!("task" in made)) throw new Error("no task in front");
  expect((await c.tasks.result(made.task.taskId)).structuredContent).toEqual({ text: `via ${era}`, ms: 150 });
  const asking = await c.tasks.call("confirm", {});
  if (!("task" in asking)) throw new Error("no task in front");
  expect((await c.tasks.result(asking.task.taskId, { onRequest: answer })).content).toEqual([
    { type: "text", text: "confirmed" },
  ]);
  const long = await c.tasks.call("work", { ms: 60_000 });
  if (!("task" in long)) throw new Error("no task in front");
  await c.tasks.cancel(long.task.taskId);
  expect((await c.tasks.get(long.task.taskId)).status).toBe("cancelled");
}

for (const era of ["legacy", "modern"] as const) {
  test(`mcpbin proxy, ${era} client in front: tasks pass through to an upstream that takes them`, async () => {
    const c = await connect(
      { command: BUN, args: [MCPBIN, "proxy", "--servers", servers] },
      { era, capabilities: { elicitation: {} } },
    );
    open.push(c);
    const tools = Object.fromEntries((await c.listTools()).map((t) => [t.name, t.execution]));
    if (era === "legacy") {
      // The upstream speaks 2026-07-28 to the proxy, where every call may become a task: "optional" here.
      expect(tools.work).toEqual({ taskSupport: "optional" });
      // An upstream without tasks: its tools are plain here too.
      expect(tools.v1__search ?? tools.search).toBeUndefined();
    }
    await drive(c, era);
    if (era === "legacy")
      await expect(c.tasks.call("weather", { city: "Paris" })).rejects.toThrow(/does not run as a task/);
  });
}

test("upstreamTools(): the upstream's tasks pass through a server of one's own (in memory)", async () => {
  // The upstream asks only what our client declared to it: elicitation, relayed to the client in front.
  const up = await connect({ command: bin }, { capabilities: { elicitation: {} } });
  open.push(up);
  const server = createServer({ name: "front", version: "1.0.0", tools: await upstreamTools(up) });
  for (const era of ["legacy", "modern"] as const) {
    const c = await connect(server, { era, capabilities: { elicitation: {} } });
    open.push(c);
    await drive(c, era);
  }
});

// The upstreams option reached in memory (connect(server), mount()): no serve() starts the upstreams before the
// handshake, so their tools arrive after it; the capabilities declared still agree with the tools listed.
for (const start of ["eager", "lazy"] as const) {
  test(`the upstreams option (${start}), in memory and mounted: a tool listed as a task has the tasks capability`, async () => {
    const inner = () =>
      createServer({ name: "inner", version: "1.0.0", tools: [], upstreams: { jobs: { command: bin, start } } });
    const direct = await connect(inner(), { era: "legacy", capabilities: { elicitation: {} } });
    open.push(direct);
    expect(direct.serverCapabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const listed = Object.fromEntries((await direct.listTools()).map((t) => [t.name, t.execution]));
    expect(listed.work).toEqual({ taskSupport: "optional" });
    await drive(direct, "legacy");
    // Mounted: the parent hears the child's tasks capability, so the tool runs as a task through both hops.
    const parent = createServer({ name: "parent", version: "1.0.0", tools: [] });
    await parent.mount(inner(), { prefix: "m" });
    const c = await connect(parent, { era: "legacy", capabilities: { elicitation: {} } });
    open.push(c);
    expect(c.serverCapabilities.tasks).toBeDefined();
    const tools = Object.fromEntries((await c.listTools()).map((t) => [t.name, t.execution]));
    expect(tools.m__work).toEqual({ taskSupport: "optional" });
  });
}
