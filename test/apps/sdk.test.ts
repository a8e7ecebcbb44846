// MCP Apps end to end: the example built into one executable, driven by the official SDK clients with and
// without the extension io.modelcontextprotocol/ui, in both eras; every response checked against schema.json.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { app } from "../../src/index.ts";
import { bundleView } from "../../src/apps/view.ts";
import { compileFixture, initLine, INITED, McpProcess, ROOT } from "../helpers/proc.ts";
import { assertValidResponse } from "../helpers/schema.ts";
import { tap, type Transport } from "../helpers/sdk-tap.ts";

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
const MIME = "text/html;profile=mcp-app";
const views = resolve(ROOT, "examples/weather-app/views");

let bin: string;
let empty: string;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  bin = await compileFixture("examples/weather-app/server.ts", "weather-app");
  empty = mkdtempSync(join(tmpdir(), "mcpbin-empty-"));
}, 120_000);
afterAll(async () => {
  for (const c of closers) await c().catch(() => {});
  rmSync(empty, { recursive: true, force: true });
});

type Client = {
  listTools(): Promise<any>;
  callTool(p: any): Promise<any>;
  listResources(): Promise<any>;
  readResource(p: any): Promise<any>;
};

async function v1(extension: boolean) {
  const transport = new StdioV1({ command: bin, args: [], stderr: "pipe", cwd: empty });
  const client = new ClientV1(
    { name: "apps-v1", version: "1.0.0" },
    { capabilities: extension ? ({ extensions: UI } as never) : {} },
  );
  // With the extension, initialize declares it back: legacy schemas tolerate capabilities.extensions, they do not define it.
  const seen = tap(transport as unknown as Transport, { open: extension });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client: client as unknown as Client, seen };
}

async function v2(extension: boolean) {
  const transport = new StdioV2({ command: bin, args: [], stderr: "pipe", cwd: empty });
  const client = new ClientV2(
    { name: "apps-v2", version: "2.0.0" },
    {
      capabilities: extension ? ({ extensions: UI } as never) : {},
      versionNegotiation: { mode: { pin: "2026-07-28" } as never },
    },
  );
  const seen = tap(transport as unknown as Transport);
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getProtocolEra()).toBe("modern");
  return { client: client as unknown as Client, seen, raw: client };
}

/** What every client sees alike: the resources, _meta.ui deep-equal on list and read, the text fallback. */
async function common(client: Client) {
  const { resources } = await client.listResources();
  const listed = resources.filter((r: { uri: string }) => r.uri.startsWith("ui://"));
  expect(listed.map((r: { uri: string }) => r.uri)).toEqual(["ui://weather/dashboard", "ui://weather/quick"]);
  for (const r of listed) {
    expect(r.mimeType).toBe(MIME);
    const read = await client.readResource({ uri: r.uri });
    expect(read.contents).toHaveLength(1);
    const item = read.contents[0];
    expect(item.mimeType).toBe(MIME);
    expect(item.text.startsWith("<!doctype html>")).toBe(true);
    expect(item._meta?.ui).toEqual(r._meta?.ui);
  }
  expect(listed[0]._meta).toEqual({ ui: { prefersBorder: true } });
  const shown = await client.callTool({ name: "show_weather", arguments: { city: "Lisbon" } });
  expect(shown.structuredContent.city).toBe("Lisbon");
  expect(JSON.parse(shown.content[0].text)).toEqual(shown.structuredContent); // text-only hosts still get the value
}

describe("legacy era (SDK v1 client, 2025-11-25)", () => {
  test("without the extension: the app-only tool is neither listed nor callable; the others link to their views", async () => {
    const { client, seen } = await v1(false);
    const { tools } = await client.listTools();
    expect(tools.map((t: { name: string }) => t.name)).toEqual(["show_weather", "temperature"]);
    const show = tools[0];
    expect(show._meta.ui).toEqual({ resourceUri: "ui://weather/dashboard", visibility: ["model", "app"] });
    expect(show._meta["ui/resourceUri"]).toBe("ui://weather/dashboard");
    await expect(client.callTool({ name: "forecast", arguments: { city: "Lisbon" } })).rejects.toMatchObject({
      code: -32602,
    });
    await common(client);
    expect(seen.length).toBeGreaterThan(5);
  });
  test("with the extension: the app-only tool is listed with visibility [app] and callable; initialize declares the extension", async () => {
    const { client } = await v1(true);
    const { tools } = await client.listTools();
    expect(tools.map((t: { name: string }) => t.name)).toEqual(["show_weather", "forecast", "temperature"]);
    expect(tools[1]._meta.ui).toEqual({ resourceUri: "ui://weather/dashboard", visibility: ["app"] });
    const f = await client.callTool({ name: "forecast", arguments: { city: "Lisbon" } });
    expect(f.structuredContent.days).toHaveLength(3);
    expect((client as unknown as ClientV1).getServerCapabilities()?.extensions).toEqual({
      "io.modelcontextprotocol/ui": {},
    });
    await common(client);
  });
});

describe("modern era (SDK v2 client, 2026-07-28)", () => {
  test("without the extension in the request's client capabilities: app-only tool hidden and unknown, the list private", async () => {
    const { client, seen, raw } = await v2(false);
    const { tools } = await client.listTools();
    expect(tools.map((t: { name: string }) => t.name)).toEqual(["show_weather", "temperature"]);
    await expect(client.callTool({ name: "forecast", arguments: { city: "Lisbon" } })).rejects.toMatchObject({
      code: -32602,
    });
    const list = seen.find((s) => s.method === "tools/list")!;
    expect(list.msg.result.cacheScope).toBe("private");
    expect(raw.getDiscoverResult()?.capabilities.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
    await common(client);
  });
  test("with the extension: the app-only tool is listed and callable", async () => {
    const { client } = await v2(true);
    const { tools } = await client.listTools();
    expect(tools.map((t: { name: string }) => t.name)).toEqual(["show_weather", "forecast", "temperature"]);
    const f = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
    expect(f.structuredContent.city).toBe("Oslo");
    await common(client);
  });
});

describe("the executable", () => {
  test("run from an empty directory, returns each view byte for byte as the build bundled it", async () => {
    expect(readdirSync(empty)).toEqual([]);
    const p = new McpProcess([bin], { cwd: empty });
    closers.push(async () => p.kill());
    p.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: { extensions: UI },
          clientInfo: { name: "t", version: "1" },
        },
      }),
    );
    await p.response(1);
    p.send(INITED);
    for (const [i, name] of ["dashboard", "quick"].entries()) {
      const expected = (await bundleView(app({ uri: `ui://weather/${name}`, name, view: join(views, `${name}.html`) })))
        .html;
      const r = await p.request("resources/read", { uri: `ui://weather/${name}` }, 10 + i, "2025-06-18");
      expect(r.result.contents[0].text).toBe(expected);
    }
  });
  test("2024-11-05 with the extension keeps tool _meta, structuredContent and resource _meta; without, they are left out", async () => {
    for (const extension of [true, false]) {
      const p = new McpProcess([bin], { cwd: empty });
      closers.push(async () => p.kill());
      p.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2024-11-05",
            capabilities: extension ? { extensions: UI } : {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      );
      await p.response(1);
      p.send(INITED);
      const list = await p.request("tools/list", {}, 2);
      const call = await p.request("tools/call", { name: "show_weather", arguments: { city: "Rome" } }, 3);
      const resources = await p.request("resources/list", {}, 4);
      const read = await p.request("resources/read", { uri: "ui://weather/dashboard" }, 5);
      expect(read.result.contents[0].mimeType).toBe(MIME);
      if (extension) {
        // Fields 2024-11-05 does not define, but its schema tolerates (extra properties are allowed there).
        for (const [m, r] of [
          ["tools/list", list],
          ["tools/call", call],
          ["resources/list", resources],
          ["resources/read", read],
        ] as const)
          assertValidResponse("2024-11-05", m, r, { open: true });
        expect(resources.result.resources[0]._meta).toEqual({ ui: { prefersBorder: true } });
        expect(read.result.contents[0]._meta).toEqual(resources.result.resources[0]._meta);
        expect(list.result.tools[0]._meta.ui.resourceUri).toBe("ui://weather/dashboard");
        expect(call.result.structuredContent.city).toBe("Rome");
      } else {
        for (const [m, r] of [
          ["tools/list", list],
          ["tools/call", call],
          ["resources/list", resources],
          ["resources/read", read],
        ] as const)
          assertValidResponse("2024-11-05", m, r);
        expect(read.result.contents[0]._meta).toBeUndefined();
        expect(list.result.tools[0]._meta).toBeUndefined();
        expect(call.result.structuredContent).toBeUndefined();
      }
      expect(JSON.parse(call.result.content[0].text).city).toBe("Rome");
    }
  });
});
