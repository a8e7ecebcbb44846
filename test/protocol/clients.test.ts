// End to end (issue 3): the compiled fixture, launched by absolute path, driven by the official SDK v1 client and the v2 client in both eras.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { isAbsolute } from "node:path";
import { compileFixture } from "../helpers/proc.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";

let bin: string;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  bin = await compileFixture("test/fixtures/servers/fixture.ts", "protocol-fixture");
}, 60_000); // a hook times out after 5 s whatever bunfig says; builds take longer under load
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
});

async function exercise(client: { listTools(): Promise<any>; callTool(p: any): Promise<any> }) {
  const { tools } = await client.listTools();
  const names = tools.map((t: { name: string }) => t.name);
  expect(names).toContain("echo");
  expect(names).toContain("proto_list");
  const echo = await client.callTool({ name: "echo", arguments: { text: "hi" } });
  expect(echo.content).toEqual([{ type: "text", text: "hi" }]);
  const weather = await client.callTool({ name: "weather", arguments: { city: "ok" } });
  expect(weather.structuredContent).toEqual({ temperature: 21.5, unit: "C" });
  const bad = await client.callTool({ name: "add", arguments: { a: "1" } });
  expect(bad.isError).toBe(true);
  return { tools, list: await client.callTool({ name: "proto_list", arguments: {} }) };
}

test("SDK v1 client (legacy): negotiates 2025-11-25, lists and calls tools; every response valid", async () => {
  expect(isAbsolute(bin)).toBe(true);
  const transport = new StdioV1({ command: bin, args: [], stderr: "pipe" });
  const client = new ClientV1({ name: "e2e-v1", version: "1.0.0" });
  const seen = tap(transport as unknown as Transport);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getServerVersion()).toEqual({ name: "fixture", version: "1.0.0" });
  expect(client.getInstructions()).toBe("Test fixture");
  const { list } = await exercise(client as never);
  expect(list.structuredContent).toBeUndefined(); // an array root cannot be structured content before 2026-07-28
  expect(list.content).toEqual([{ type: "text", text: "[1,2,3]" }]);
  expect(seen[0]!.method).toBe("initialize");
  expect(seen[0]!.version).toBe("2025-11-25");
  expect(seen.every((s) => s.version === "2025-11-25")).toBe(true);
});

test("SDK v2 client, default (legacy) era: initialize, list, call", async () => {
  const transport = new StdioV2({ command: bin, args: [], stderr: "pipe" });
  const client = new ClientV2({ name: "e2e-v2", version: "2.0.0" });
  const seen = tap(transport as unknown as Transport);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getProtocolEra()).toBe("legacy");
  expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
  await exercise(client);
  expect(seen.map((s) => s.method)).toEqual([
    "initialize",
    "tools/list",
    "tools/call",
    "tools/call",
    "tools/call",
    "tools/call",
  ]);
});

for (const mode of [{ pin: "2026-07-28" }, "auto"] as const) {
  test(`SDK v2 client, versionNegotiation ${JSON.stringify(mode)}: the modern era, no initialize, every request carries the _meta claim`, async () => {
    const transport = new StdioV2({ command: bin, args: [], stderr: "pipe" });
    const client = new ClientV2({ name: "e2e-v2", version: "2.0.0" }, { versionNegotiation: { mode: mode as never } });
    const seen = tap(transport as unknown as Transport);
    await client.connect(transport);
    closers.push(() => client.close());
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerVersion()).toEqual({ name: "fixture", version: "1.0.0" });
    expect(client.getDiscoverResult()?.supportedVersions).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05",
    ]);
    const { tools, list } = await exercise(client);
    expect(tools.find((t: { name: string }) => t.name === "proto_list").outputSchema.type).toBe("array");
    expect(list.structuredContent).toEqual([1, 2, 3]);
    expect(seen.some((s) => s.method === "initialize")).toBe(false);
    expect(seen.filter((s) => s.method === "tools/call").length).toBe(4);
    expect(seen.every((s) => s.version === "2026-07-28" && s.msg.result.resultType === "complete")).toBe(true);
  });
}
