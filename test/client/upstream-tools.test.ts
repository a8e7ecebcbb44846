// upstreamTools() in a script-style server (test/fixtures/upstreams/hub.ts) fronting the SDK v1 server and
// an mcpbin server, both over stdio, driven by the official SDK v1 client (legacy) and v2 client (2026-07-28).
import { afterEach, expect, test } from "bun:test";
import type { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { resolve } from "node:path";
import { BUN, ROOT } from "../helpers/proc.ts";
import type { Tapped } from "./tap.ts";
import { expectSteps } from "./steps.ts";
import { progressOnWire, v1Front, v2Front } from "./front.ts";

const HUB = resolve(ROOT, "test/fixtures/upstreams/hub.ts");
const closers: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await Promise.resolve(c()).catch(() => {});
});

async function exercise(client: ClientV1 | ClientV2, tapped: Tapped) {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(
    [
      "echo",
      "mine",
      "progress",
      "sleep",
      "v1__env",
      "v1__get_user",
      "v1__meta",
      "v1__pid",
      "v1__search",
      "v1__steps",
      "v1__wait",
      "v1__weather",
    ].sort(),
  );
  const weather = tools.find((t) => t.name === "v1__weather")!;
  expect(weather.title).toBe("Weather");
  expect(weather.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
  expect(weather._meta).toEqual({ "example.com/owner": "v1" });
  expect(weather.outputSchema).toMatchObject({ type: "object", required: ["temperature", "city"] });

  const r = await client.callTool({ name: "v1__weather", arguments: { city: "Oslo" } });
  expect(r.content).toEqual([
    { type: "text", text: '{"temperature":21.5,"city":"Oslo"}', annotations: { audience: ["user"], priority: 0.5 } },
  ]);
  expect(r.structuredContent).toEqual({ temperature: 21.5, city: "Oslo" });
  expect((r._meta as Record<string, unknown>)["example.com/source"]).toBe("v1");
  expect((await client.callTool({ name: "v1__get_user", arguments: { id: 7 } })).content).toEqual([
    { type: "text", text: "user 7" },
  ]);
  expect((await client.callTool({ name: "echo", arguments: { text: "through" } })).content).toEqual([
    { type: "text", text: "through" },
  ]);

  const steps = await (client as ClientV1).callTool({ name: "v1__steps", arguments: {} }, undefined, {
    onprogress: () => {},
  });
  expect(steps.content).toEqual([{ type: "text", text: "token string" }]);
  expectSteps(progressOnWire(tapped));
}

test("SDK v1 client (legacy) in front of upstreamTools: names, definitions, results, progress", async () => {
  const { client, seen } = await v1Front([BUN, HUB], { closers });
  await exercise(client, seen);
  expect(seen.length).toBeGreaterThanOrEqual(6);
});

test("SDK v2 client (2026-07-28) in front of upstreamTools: the legacy upstream's results arrive as valid 2026 results", async () => {
  const { client, seen } = await v2Front([BUN, HUB], { closers });
  const { tools } = await client.listTools();
  expect(tools.length).toBe(12);
  const r = await client.callTool({ name: "v1__weather", arguments: { city: "Oslo" } });
  expect(r.structuredContent).toEqual({ temperature: 21.5, city: "Oslo" });
  expect(seen.filter((s) => s.version === "2026-07-28").length).toBeGreaterThanOrEqual(2);
  const steps = await client.callTool({ name: "v1__steps", arguments: {} }, { onprogress: () => {} });
  expect(steps.content).toEqual([{ type: "text", text: "token string" }]);
  expectSteps(progressOnWire(seen));
});

test("upstreamContent(): another server's resources and prompts served beside our own, both eras, fields kept", async () => {
  const { createServer, prompt, resource, upstreamContent: content } = await import("../../src/index.ts");
  const { connect: connectTo } = await import("../../src/client/connect.ts");
  const other = createServer({
    name: "other",
    version: "1.0.0",
    tools: [],
    resources: [
      resource({
        uri: "other://readme",
        name: "readme",
        title: "Readme",
        mimeType: "text/markdown",
        text: "# other",
        meta: { "example.com/k": 1 },
      }),
    ],
    prompts: [prompt({ name: "hello", description: "Says hello", get: () => "hello from other" })],
  });
  const upstream = await connectTo(other, { name: "other" });
  const mine = resource({ uri: "mine://a", name: "a", text: "mine" });
  const hubServer = createServer({
    name: "hub",
    version: "1.0.0",
    tools: [],
    resources: [mine, await content(upstream)],
  });
  for (const era of ["legacy", "modern"] as const) {
    const c = await connectTo(hubServer, { era });
    const listed = await c.listResources();
    expect(listed.map((r) => r.uri)).toEqual(["mine://a", "other://readme"]);
    expect(listed[1]).toMatchObject({
      name: "readme",
      title: "Readme",
      mimeType: "text/markdown",
      _meta: { "example.com/k": 1 },
    });
    expect((await c.readResource("other://readme")).contents).toEqual([
      { uri: "other://readme", mimeType: "text/markdown", text: "# other" },
    ]);
    expect((await c.readResource("mine://a")).contents).toMatchObject([{ text: "mine" }]);
    expect((await c.listPrompts()).map((p) => p.name)).toEqual(["hello"]);
    expect((await c.getPrompt("hello")).messages).toEqual([
      { role: "user", content: { type: "text", text: "hello from other" } },
    ]);
    const missing = await c.readResource("other://nope").then(
      () => undefined,
      (e) => e,
    );
    expect(missing?.rpc).toMatchObject({ code: era === "modern" ? -32602 : -32002, data: { uri: "other://nope" } });
    await c.close();
  }
  await upstream.close();
});
