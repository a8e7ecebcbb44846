// mcpbin proxy and the MCP Apps extension: the proxy declares `extensions["io.modelcontextprotocol/ui"]` to its
// upstreams, so an upstream with views (examples/weather-app, an mcpbin server) lists its UI-enabled tools,
// the view-only `forecast` included; a client in front that declared the extension gets them and the views,
// one that did not neither lists nor calls `forecast`. Driven by the official SDK v1 and v2 clients.
import { beforeAll, expect, test } from "bun:test";
import { closedAfterEach, serversFile } from "./front.ts";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import { APP_MIME_TYPE, UI_EXTENSION } from "../../src/apps/app.ts";

const MCPBIN = resolve(ROOT, "bin/mcpbin.ts");
const WEATHER = resolve(ROOT, "examples/weather-app/server.ts");
const UI = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
type Msg = Record<string, any>;

let servers: string;
const closers = closedAfterEach();
beforeAll(() => {
  servers = serversFile({ weather: { command: BUN, args: [WEATHER] } }, "mcpbin-proxy-ui-");
});

async function v1Front(capabilities: Msg) {
  const client = new ClientV1({ name: "v1-front", version: "1.0.0" }, { capabilities: capabilities as never });
  await client.connect(new StdioV1({ command: BUN, args: [MCPBIN, "proxy", "--servers", servers], stderr: "ignore" }));
  closers.push(() => client.close());
  return client;
}

test("SDK v1 client declaring the extension: the upstream's view-only tool is listed and called, links and views as the upstream sent them", async () => {
  const client = await v1Front(UI);
  expect((client.getServerCapabilities() as Msg).extensions).toEqual({ [UI_EXTENSION]: {} });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["forecast", "show_weather", "temperature"]);
  expect(tools.find((t) => t.name === "show_weather")!._meta).toMatchObject({
    ui: { resourceUri: "ui://weather/dashboard", visibility: ["model", "app"] },
  });
  expect(tools.find((t) => t.name === "forecast")!._meta).toMatchObject({
    ui: { resourceUri: "ui://weather/dashboard", visibility: ["app"] },
  });
  const r = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
  expect(r.isError).toBeFalsy();
  expect((r.structuredContent as Msg).days).toHaveLength(3);
  const view = await client.readResource({ uri: "ui://weather/dashboard" });
  expect(view.contents[0]).toMatchObject({ uri: "ui://weather/dashboard", mimeType: APP_MIME_TYPE });
  expect(String((view.contents[0] as Msg).text)).toContain("<html");
});

test("SDK v1 client without the extension: the view-only tool is neither listed nor callable; the others keep their links", async () => {
  const client = await v1Front({});
  expect((client.getServerCapabilities() as Msg).extensions).toBeUndefined();
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(["show_weather", "temperature"]);
  const e = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } }).then(
    () => undefined,
    (x: Msg) => x,
  );
  expect(e).toMatchObject({ code: -32602 });
  expect(String(e!.message)).toContain("Unknown tool: forecast");
  expect((await client.callTool({ name: "show_weather", arguments: { city: "Oslo" } })).isError).toBeFalsy();
});

test("SDK v2 client (2026-07-28) declaring the extension per request: the view-only tool is listed and called", async () => {
  const client = new ClientV2(
    { name: "v2-front", version: "2.0.0" },
    { capabilities: UI as never, versionNegotiation: { mode: { pin: "2026-07-28" } as never } },
  );
  await client.connect(new StdioV2({ command: BUN, args: [MCPBIN, "proxy", "--servers", servers], stderr: "ignore" }));
  closers.push(() => client.close());
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain("forecast");
  const r = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
  expect(((r as Msg).structuredContent as Msg).days).toHaveLength(3);
});
