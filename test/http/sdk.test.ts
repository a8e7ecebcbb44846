// End to end over Streamable HTTP: the compiled fixture binary started with --http on a free loopback
// port, driven by the official clients' HTTP transports (SDK v1: legacy sessions; SDK v2: modern
// 2026-07-28), plus two processes behind one alternating modern client (stateless scale-out).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { compileFixture } from "../helpers/proc.ts";
import { HttpProcess, META, modernHeaders, post, validatingFetch } from "./helpers.ts";

let bin: string;
let a: HttpProcess;
let b: HttpProcess;

beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/fixture.ts", "fixture-http");
  [a, b] = await Promise.all([HttpProcess.start([bin]), HttpProcess.start([bin])]);
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load
afterAll(() => {
  if (process.env.HTTP_DEBUG) console.error(a?.stderr);
  a?.kill();
  b?.kill();
});

async function modernClient(url: string) {
  const v = validatingFetch();
  const client = new ClientV2({ name: "e2e-v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new TransportV2(new URL(url), { fetch: v.fetch }));
  return { client, checked: v.checked };
}

test("the compiled executable listens on loopback at /mcp and reports healthy", async () => {
  expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(a.url).not.toBe(b.url);
  const r = await fetch(new URL("/healthz", a.url));
  expect(r.status).toBe(200);
  expect(await r.text()).toBe("ok\n");
});

test("SDK v1 StreamableHTTPClientTransport: a legacy session with Mcp-Session-Id, tools, progress over SSE, DELETE", async () => {
  const v = validatingFetch();
  const transport = new TransportV1(new URL(a.url), { fetch: v.fetch });
  const client = new ClientV1({ name: "e2e-v1", version: "1.0.0" });
  await client.connect(transport);
  expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  expect(client.getServerVersion()).toEqual({ name: "fixture", version: "1.0.0" });

  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("add_numbers");
  const sum = await client.callTool({ name: "add_numbers", arguments: { x: 2, y: 3 } });
  expect(sum.content).toEqual([{ type: "text", text: "5" }]);
  const bad = await client.callTool({ name: "add_numbers", arguments: { x: "two", y: 3 } });
  expect(bad.isError).toBe(true);

  const seen: number[] = [];
  const done = await client.callTool({ name: "progress", arguments: {} }, undefined, {
    onprogress: (p) => void seen.push(p.progress),
  });
  expect(done.content).toEqual([{ type: "text", text: "done" }]);
  expect(seen).toEqual([1, 2, 3]);

  // Concurrent calls on one session: each result (and progress) goes back on its own request.
  const many = await Promise.all(
    [1, 2, 3, 4, 5].map((i) => client.callTool({ name: "echo", arguments: { text: `n${i}` } })),
  );
  expect(many.map((r) => (r.content as any)[0].text)).toEqual(["n1", "n2", "n3", "n4", "n5"]);

  const sid = transport.sessionId!;
  await transport.terminateSession();
  const after = await post(
    a.url,
    { jsonrpc: "2.0", id: 9, method: "tools/list" },
    { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sid },
  );
  expect(after.status).toBe(404);
  await client.close();
  expect(v.checked.responses).toBeGreaterThanOrEqual(10);
  expect(v.checked.notifications).toBe(3);
});

test("SDK v2 client, modern 2026-07-28: stateless, no session id, headers sent and accepted, progress over SSE", async () => {
  const { client, checked } = await modernClient(a.url);
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const { tools } = await client.listTools();
  expect(tools.find((t) => t.name === "echo")).toBeDefined();
  const r = await client.callTool({ name: "echo", arguments: { text: "héllo wörld" } });
  expect(r.content).toEqual([{ type: "text", text: "héllo wörld" }]);
  const seen: number[] = [];
  const done = await client.callTool(
    { name: "progress", arguments: {} },
    { onprogress: (p) => void seen.push(p.progress) },
  );
  expect(done.content).toEqual([{ type: "text", text: "done" }]);
  expect(seen).toEqual([1, 2, 3]);
  await client.close();
  expect(checked.responses).toBeGreaterThanOrEqual(4);
  expect(checked.notifications).toBe(3);
  expect(checked.statuses.every((s) => s === 200)).toBe(true);
});

test("a modern request gets no Mcp-Session-Id, and a method this server lacks is 404 with -32601", async () => {
  const r = await post(
    a.url,
    { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } },
    modernHeaders("tools/list"),
  );
  expect(r.status).toBe(200);
  expect(r.headers.get("mcp-session-id")).toBeNull();
  const nf = await post(
    a.url,
    { jsonrpc: "2.0", id: 2, method: "prompts/list", params: { _meta: META } },
    modernHeaders("prompts/list"),
  );
  expect(nf.status).toBe(404);
  expect(nf.json.error.code).toBe(-32601);
});

test("scale-out: one modern client alternating between two server processes, every call succeeds with no shared state", async () => {
  // One SDK v2 client whose every POST goes to the other process in turn, as a round-robin load
  // balancer would send it: the discover probe to one, tools/list to the other, and so on.
  const v = validatingFetch();
  const origins = [new URL(a.url).origin, new URL(b.url).origin];
  const served = [0, 0];
  let turn = 0;
  const roundRobin = ((input: any, init?: any) => {
    const i = turn++ % 2;
    served[i]!++;
    const url = new URL(String(input instanceof Request ? input.url : input));
    return v.fetch(origins[i] + url.pathname, init);
  }) as typeof fetch;
  const client = new ClientV2({ name: "e2e-lb", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new TransportV2(new URL(a.url), { fetch: roundRobin }));
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("add_numbers");
  for (let i = 0; i < 20; i++) {
    const r = await client.callTool({ name: "add_numbers", arguments: { x: i, y: 1000 } });
    expect(r.content).toEqual([{ type: "text", text: String(i + 1000) }]);
  }
  const seen: number[] = [];
  const p = await client.callTool(
    { name: "progress", arguments: {} },
    { onprogress: (x) => void seen.push(x.progress) },
  );
  expect([p.content, seen]).toEqual([[{ type: "text", text: "done" }], [1, 2, 3]]);
  await client.close();
  expect(served[0]).toBeGreaterThanOrEqual(11);
  expect(served[1]).toBeGreaterThanOrEqual(11);
  expect(v.checked.statuses.every((st) => st === 200)).toBe(true);
  expect(v.checked.responses).toBe(23);
  // The same raw request, byte for byte, to either process: the same answer (nothing depends on earlier requests).
  const body = {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "same" }, _meta: META },
  };
  const [ra, rb] = await Promise.all([a, b].map((p) => post(p.url, body, modernHeaders("tools/call", "echo"))));
  expect(ra!.status).toBe(200);
  expect(ra!.text).toBe(rb!.text);
  // Each process served its share: both access logs name tools/call.
  expect(a.stderr).toContain("POST /mcp tools/call 200");
  expect(b.stderr).toContain("POST /mcp tools/call 200");
});

test("legacy sessions need sticky routing: the same round robin gives an SDK v1 session 404 on the other process", async () => {
  const origins = [new URL(a.url).origin, new URL(b.url).origin];
  const statuses: number[] = [];
  let turn = 0;
  const roundRobin = (async (input: any, init?: any) => {
    const r = await fetch(origins[turn++ % 2] + new URL(String(input)).pathname, init);
    statuses.push(r.status);
    return r;
  }) as typeof fetch;
  const client = new ClientV1({ name: "e2e-lb-legacy", version: "1.0.0" });
  const transport = new TransportV1(new URL(a.url), { fetch: roundRobin });
  // initialize reaches one process; the session id it issued is unknown to the other one.
  await expect(client.connect(transport).then(() => client.listTools())).rejects.toThrow();
  expect(statuses[0]).toBe(200);
  expect(statuses).toContain(404);
  await client.close().catch(() => {});
});
