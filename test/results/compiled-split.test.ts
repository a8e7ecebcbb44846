// A compiled executable whose code is split into chunks (`mcpbin build --splitting`): what loads on
// request (Ajv for raw JSON Schemas, the Streamable HTTP transport) must be there when first needed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { compileFixture, McpProcess } from "../helpers/proc.ts";
import { compileConfig } from "../../src/cli/build.ts";
import { recordBytecodeOrder } from "../../src/cli/bytecode-order.ts";
import { readFileSync } from "node:fs";

let bin: string;
const procs: McpProcess[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/results/server.ts", "results-split");
}, 120_000); // compiling takes seconds on a busy 2-core machine; the hook default is 5 s
afterAll(() => {
  for (const p of procs) p.kill();
});

test("release compiles split lazily loaded code into chunks and run with --smol", () => {
  const c = compileConfig({ entry: "/x/main.ts" }, "/x/out");
  expect(c.splitting).toBe(true);
  expect(c.compile.execArgv).toEqual(["--smol"]);
  expect(compileConfig({ entry: "/x/main.ts", smol: false }, "/x/out").compile.execArgv).toBeUndefined();
  expect(compileConfig({ entry: "/x/main.ts", bytecodeOrder: "/x/order.txt" }, "/x/out").compile.bytecodeOrder).toBe(
    "/x/order.txt",
  );
  const plain = compileConfig({ entry: "/x/main.ts", bytecodeOrder: "/x/order.txt", bytecode: false }, "/x/out");
  expect(plain.bytecode).toBe(false);
  expect(plain.compile.bytecodeOrder).toBeUndefined();
});

test("the bytecode-order profile is recorded over stdio even when the server's options ask for HTTP (MCPBIN_STDIO=1)", async () => {
  const httpBin = await compileFixture("test/fixtures/servers/http-options.ts", "http-options");
  const started = performance.now();
  const order = await recordBytecodeOrder(httpBin);
  expect(order).toBeDefined();
  order!.cleanup();
  expect(performance.now() - started).toBeLessThan(8_000); // the session ended on EOF, not by the 10 s kill
}, 120_000);

test("the bytecode-order profile of a build: written by one scripted session of the executable", async () => {
  const order = await recordBytecodeOrder(bin);
  expect(order).toBeDefined();
  try {
    const text = readFileSync(order!.file, "utf8");
    expect(text.startsWith("v2\n")).toBe(true);
    expect(text.split("\n").length).toBeGreaterThan(100);
  } finally {
    order!.cleanup();
  }
}, 30_000);

test("raw inputSchema: the first call, sent in the same write as initialize, is validated by Ajv from its chunk", async () => {
  const p = new McpProcess([bin]);
  procs.push(p);
  const lines = [
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "raw_in", arguments: { n: 0 } } },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "raw_in", arguments: { n: 2, extra: true } } },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "raw_in", arguments: { n: 3 } } },
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "verbatim_in", arguments: { n: "x" } } },
  ];
  p.proc.stdin.write(lines.map((l) => JSON.stringify(l) + "\n").join(""));
  p.proc.stdin.flush();
  const byId = async (id: number) =>
    (await p.waitFor((m) => m.id === id)) as {
      result: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
    };
  const r1 = await byId(1);
  expect(r1.result.isError).toBe(true);
  expect(r1.result.content[0]!.text).toBe("Invalid arguments for tool raw_in:\nn: must be >= 1");
  const r2 = await byId(2);
  expect(r2.result.isError).toBe(true);
  expect(r2.result.content[0]!.text).toContain("extra: unexpected key (not in the schema)");
  const r3 = await byId(3);
  expect(r3.result.isError).toBeUndefined();
  expect(JSON.parse(r3.result.content[0]!.text)).toEqual({ n: 3 });
  const r4 = await byId(4);
  expect(r4.result.isError).toBe(true);
  expect(r4.result.content[0]!.text).toBe("Invalid arguments for tool verbatim_in:\nn: must be integer");
  expect(p.stderr).toBe("");
}, 30_000);

test("the Streamable HTTP transport loads from its chunk: --http serves a compiled executable", async () => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const p = new McpProcess([bin, "--http", `127.0.0.1:${port}`]);
  procs.push(p);
  let res: Response | undefined;
  for (let i = 0; i < 100 && !res; i++) {
    res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (!res) await Bun.sleep(50);
  }
  expect(res?.status).toBe(200);
}, 30_000);
