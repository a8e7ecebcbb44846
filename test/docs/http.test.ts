/** @module docs/http.md: its HTTP server built and served with a token, and its Hono app run from source, both driven over Streamable HTTP by the official SDK clients. */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import type { Subprocess } from "bun";
import { join } from "node:path";
import { BUN } from "../helpers/proc.ts";
import { StreamText } from "../helpers/wait.ts";
import { HttpProcess } from "../http/helpers.ts";
import { buildExample, removeExamples, writeExample } from "./examples.ts";

setDefaultTimeout(120_000);
const TOKEN = "a-long-enough-token-for-the-guide-0123456789";
let server: HttpProcess;
let hono: Subprocess<"ignore", "pipe", "pipe">;
let honoUrl = "";
beforeAll(async () => {
  const { bin } = await buildExample("http", ["server.ts", "--outfile", "dist/my-server"], "dist/my-server");
  server = await HttpProcess.start([bin], { env: { MCPBIN_HTTP_TOKEN: TOKEN } });
  const dir = writeExample("hono");
  hono = Bun.spawn([BUN, join(dir, "server.ts")], {
    cwd: dir,
    env: { ...process.env, PORT: "0" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new StreamText(hono.stdout).waitFor(/MCP at (\S+)/, 20_000);
  honoUrl = /MCP at (\S+)/.exec(out)![1]!;
});
afterAll(async () => {
  server?.proc.kill();
  hono?.kill();
  await Promise.all([server?.exited, hono?.exited]);
  removeExamples();
});

test("with the token: a legacy session and a 2026-07-28 client both call whoami", async () => {
  const c1 = new ClientV1({ name: "guide-v1", version: "1.0.0" });
  await c1.connect(
    new HttpV1(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}`, "user-agent": "guide/1" } },
    }),
  );
  const r1: any = await c1.callTool({ name: "whoami", arguments: {} });
  expect(JSON.parse(r1.content[0].text)).toEqual({ client: "guide-v1", session: true, token: true, agent: "guide/1" });
  await c1.close();

  const c2 = new ClientV2({ name: "guide-v2", version: "2.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } as never },
  } as never);
  await c2.connect(
    new HttpV2(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }) as never,
  );
  const r2: any = await c2.callTool({ name: "whoami", arguments: {} });
  expect(JSON.parse(r2.content[0].text)).toMatchObject({ client: "guide-v2", session: false, token: true });
  await c2.close();
});

test("without the token: 401 with WWW-Authenticate; a foreign origin: 403; the listed origin passes", async () => {
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
  };
  const post = (headers: Record<string, string>) =>
    fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(init),
    });
  const anonymous = await post({});
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get("www-authenticate")).toContain("Bearer");
  expect((await post({ authorization: `Bearer ${TOKEN}`, origin: "https://evil.example" })).status).toBe(403);
  expect((await post({ authorization: `Bearer ${TOKEN}`, origin: "https://app.example.com" })).status).toBe(200);
});

test("the Hono app: its own tool and its OpenAPI operation, served by mcpHandler at /mcp", async () => {
  const c = new ClientV1({ name: "guide-hono", version: "1.0.0" });
  await c.connect(new HttpV1(new URL(honoUrl)));
  try {
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["echo", "get_time"]);
    expect((await c.callTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([
      { type: "text", text: "hi" },
    ]);
    const time: any = await c.callTool({ name: "get_time", arguments: {} });
    expect(Number.isNaN(Date.parse(time.structuredContent.now))).toBe(false);
  } finally {
    await c.close();
  }
});
