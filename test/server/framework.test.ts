// createServer(), request context, middleware and a live tool set (issue 21), through the compiled
// executable driven by the official SDK clients: stdio in both eras, and two HTTP clients at once.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { compileFixture, McpProcess, META } from "../helpers/proc.ts";
import { assertValidNotification } from "../helpers/schema.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";
import { HttpProcess } from "../http/helpers.ts";

setDefaultTimeout(60_000);
let bin: string;
const closers: (() => unknown)[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/framework.ts", "framework");
}, 120_000);
afterAll(async () => {
  for (const c of closers) await Promise.resolve(c()).catch(() => {});
});

const text = (r: any) => (r.content as { text: string }[])[0]!.text;

async function stdioV1(env: Record<string, string> = {}) {
  const transport = new StdioV1({ command: bin, stderr: "pipe", env: { PATH: process.env.PATH ?? "", ...env } });
  let stderr = "";
  transport.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const seen = tap(transport as unknown as Transport);
  const client = new ClientV1({ name: "t1", version: "1.0.0" }, { capabilities: { sampling: {} } });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, seen, stderr: () => stderr };
}

test("legacy stdio (SDK v1): ctx, middleware order, a changed request, short-circuits, maskErrors, ToolError, the cache, and list_changed after addTool", async () => {
  const { client, seen, stderr } = await stdioV1();
  expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  expect(JSON.parse(text(await client.callTool({ name: "whoami", arguments: {} })))).toEqual({
    client: "t1",
    clientVersion: "1.0.0",
    session: null,
    user: null,
    token: null,
    server: "framework",
    sampling: true,
  });
  // middleware changes the request: the tool gets upper-cased text
  expect(text(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("HI");
  // short-circuit with a result (no such tool: the handler never runs), and with a JSON-RPC error
  const blocked = await client.callTool({ name: "blocked", arguments: {} });
  expect([blocked.isError, text(blocked)]).toEqual([true, "blocked by policy"]);
  const err = await client
    .callTool({ name: "forbidden", arguments: {} })
    .catch((e: { code: number; message: string }) => e);
  expect((err as { code: number }).code).toBe(-32602);
  expect((err as { message: string }).message).toContain("forbidden by policy");
  // maskErrors: a thrown Error is hidden from the model, a ToolError is not
  expect(text(await client.callTool({ name: "boom", arguments: {} }))).toBe("Tool boom failed: internal error");
  expect(text(await client.callTool({ name: "oops", arguments: {} }))).toBe("try again with a city");
  // the TTL cache of a readOnlyHint tool
  expect(text(await client.callTool({ name: "counter", arguments: {} }))).toBe("1");
  expect(text(await client.callTool({ name: "counter", arguments: {} }))).toBe("1");
  // order: A wraps B; observed results
  const lines = stderr().split("\n");
  const at = (l: string) => lines.indexOf(l);
  expect(at("A> echo")).toBeGreaterThan(-1);
  expect([
    at("A> echo") < at("B> echo"),
    at("B> echo") < at("<B echo isError=false"),
    at("<B echo isError=false") < at("<A echo isError=false"),
  ]).toEqual([true, true, true]);
  expect(lines).toContain("<A boom isError=true");
  expect(stderr()).toContain("db password is hunter2"); // the stack still reaches stderr

  // a live tool set: the tool adds a tool and disables another; the client is told and lists again
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  expect(text(await client.callTool({ name: "grow", arguments: {} }))).toBe("grown");
  await changed;
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain("added");
  expect(names).not.toContain("boom");
  expect(text(await client.callTool({ name: "added", arguments: {} }))).toBe("I was added");
  const gone = await client.callTool({ name: "boom", arguments: {} }).catch((e: { message: string }) => e);
  expect(String("message" in gone ? gone.message : text(gone))).toContain("Unknown tool: boom");
  expect(seen.length).toBeGreaterThan(10);
});

test("2026-07-28 stdio (SDK v2): ctx.client comes from each request's _meta", async () => {
  const transport = new StdioV2({ command: bin, args: [], stderr: "pipe" });
  const seen = tap(transport as unknown as Transport);
  const client = new ClientV2(
    { name: "t2", version: "2.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } as never } },
  );
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getProtocolEra()).toBe("modern");
  const r = JSON.parse(text(await client.callTool({ name: "whoami", arguments: {} })));
  expect([r.client, r.clientVersion, r.server, r.session]).toEqual(["t2", "2.0.0", "framework", null]);
  expect(text(await client.callTool({ name: "echo", arguments: { text: "modern" } }))).toBe("MODERN");
  expect(seen.every((s) => s.version === "2026-07-28")).toBe(true);
});

test("2026-07-28 stdio: an open subscriptions/listen stream does not hold the shutdown: at EOF it ends with its result and the process exits without waiting for the grace", async () => {
  const p = new McpProcess([bin]);
  closers.push(() => p.kill());
  p.send({
    jsonrpc: "2.0",
    id: "L2",
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true }, _meta: { ...META } },
  });
  await p.waitFor((x) => x.method === "notifications/subscriptions/acknowledged");
  p.closeStdin();
  // Bounded well below the 5 s shutdown grace a call in flight would get.
  const ended = await p.waitFor((x) => x.id === "L2", 3000);
  expect(ended.result).toBeDefined();
  expect(await Promise.race([p.exited, Bun.sleep(3000).then(() => "still running")])).toBe(0);
});

test("rateLimit: the third call in a minute is an isError result with a retry hint; listing is not counted", async () => {
  const { client } = await stdioV1({ FRAMEWORK_RATE: "2" });
  expect(text(await client.callTool({ name: "echo", arguments: { text: "a" } }))).toBe("A");
  expect(text(await client.callTool({ name: "echo", arguments: { text: "b" } }))).toBe("B");
  for (let i = 0; i < 3; i++) await client.listTools();
  const third = await client.callTool({ name: "echo", arguments: { text: "c" } });
  expect(third.isError).toBe(true);
  expect(text(third)).toMatch(/^Rate limit exceeded: at most 2 tool calls per minute; retry in \d+ s$/);
  expect((third._meta as Record<string, unknown>)["io.mcpbin/retryAfterSeconds"]).toBeGreaterThan(0);
});

test("HTTP: two clients calling at once each see their own ctx (session, headers, token, client)", async () => {
  const server = await HttpProcess.start([bin], { env: { MCPBIN_HTTP_TOKEN: "sekret-token" } });
  closers.push(() => server.kill());
  const connectAs = async (name: string, user: string) => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: "Bearer sekret-token", "x-user": user } },
    });
    const client = new ClientV1({ name, version: "9" });
    const seen = tap(transport as unknown as Transport);
    await client.connect(transport);
    closers.push(() => client.close());
    return { client, transport, seen };
  };
  const [a, b] = await Promise.all([connectAs("alice-app", "alice"), connectAs("bob-app", "bob")]);
  const [ra, rb] = await Promise.all([
    a.client.callTool({ name: "whoami", arguments: { waitMs: 300 } }),
    b.client.callTool({ name: "whoami", arguments: { waitMs: 300 } }),
  ]);
  const wa = JSON.parse(text(ra));
  const wb = JSON.parse(text(rb));
  expect([wa.client, wa.user, wa.token, wa.session]).toEqual([
    "alice-app",
    "alice",
    "sekret-token",
    a.transport.sessionId,
  ]);
  expect([wb.client, wb.user, wb.token, wb.session]).toEqual(["bob-app", "bob", "sekret-token", b.transport.sessionId]);
  expect(wa.session).not.toBe(wb.session);
  expect(a.seen.length + b.seen.length).toBe(4);
});

test("2026-07-28: a subscriptions/listen stream that asks for toolsListChanged is acknowledged and told after the tool set changes", async () => {
  const p = new McpProcess([bin]);
  closers.push(() => p.kill());
  const m = (params: Record<string, unknown>) => ({ ...params, _meta: { ...META } });
  p.send({
    jsonrpc: "2.0",
    id: "L1",
    method: "subscriptions/listen",
    params: m({ notifications: { toolsListChanged: true, promptsListChanged: true } }),
  });
  const ack = await p.waitFor((x) => x.method === "notifications/subscriptions/acknowledged");
  assertValidNotification("2026-07-28", "SubscriptionsAcknowledgedNotification", ack);
  expect(ack.params).toEqual({
    notifications: { toolsListChanged: true },
    _meta: { "io.modelcontextprotocol/subscriptionId": "L1" },
  });
  expect(
    (await p.request("tools/call", m({ name: "grow", arguments: {} }), 2, "2026-07-28")).result.content[0].text,
  ).toBe("grown");
  const changed = await p.waitFor((x) => x.method === "notifications/tools/list_changed");
  assertValidNotification("2026-07-28", "ToolListChangedNotification", changed);
  expect(changed.params).toEqual({ _meta: { "io.modelcontextprotocol/subscriptionId": "L1" } });
  const names = (await p.request("tools/list", m({}), 3, "2026-07-28")).result.tools.map(
    (t: { name: string }) => t.name,
  );
  expect(names).toContain("added");
  expect(names).not.toContain("boom");
});
